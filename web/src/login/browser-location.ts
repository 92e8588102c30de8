/** The one place that leaves or reloads the page (tests replace these). */
export const browserLocation = {
  assign(url: string): void {
    window.location.assign(url);
  },
  /** Leaves without keeping this page in the history: Back cannot return to a sign-in that is over. */
  replace(url: string): void {
    window.location.replace(url);
  },
  reload(): void {
    window.location.reload();
  },
};
