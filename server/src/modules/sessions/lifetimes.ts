/** How long sessions live. */
export const sessionLifetimeMs = 365 * 86_400_000;
/** How long the immediate predecessor of the current refresh token is still accepted (concurrent tabs, retries). */
export const refreshGraceMs = 10_000;
/**
 * How recent a proof of the account's credentials on the session (a sign-in's factor or a re-authentication, never a
 * refresh) must be to change a factor (add, rename or delete a passkey): else 401 REAUTHENTICATION_REQUIRED.
 */
export const reauthenticationWindowMs = 5 * 60_000;
/** How long superseded refresh tokens are kept to recognise their reuse. */
export const refreshHistoryMs = 7 * 86_400_000;
