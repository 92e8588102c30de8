/**
 * A user's settings until they change them: emails and both kinds of notification on, no language chosen. The row
 * written for a new user and the answer for a user without a row are both these.
 */
export const defaultUserSettings = {
  receive_emails: true,
  notify_checklists: true,
  notify_documents: true,
  preferred_language: null as string | null,
};
