// The contract says truthfully what is throttled: a 429 is declared exactly on the operations that can answer
// it. A client that believed a 429 on an operation that is never throttled would wait for nothing; one that
// did not expect it where it happens would show a wrong message.
import { operations } from '../prove/support/contract';

/** The operations that throttle (each enforced in server/src; see docs/decisions.md, Sign-in API). */
const throttled = [
  'createSession', // lockouts per identity and address, per identity, per address
  'probeHash', // rate limits per address and hash; the sign-in lockouts
  'probeIdpDomain', // rate limit per address
  'createSessionChallenge', // one-time-code cooldown and hourly budget; SSO challenges per session
  'verifySessionChallenge', // wrong one-time codes count towards the sign-in lockouts
  'requestPasswordReset', // per address and per hash
  'getPasswordResetToken',
  'resetPassword',
  'getPasswordSetToken',
  'setPassword', // token checks per address
  'createPersonalAlarm', // sending quota: alarms created for later, per sender (one that goes off now never counts)
  'sendCecMessage', // external messages per sender, then the tenant's ceiling
  'createPasskeyAuthenticationOptions', // per address
  'createPasskeyRegistrationOptions', // per user
  'reauthenticateSession', // the sign-in lockouts, as a password sign-in
  'removePasskeyByLink', // per address
  'changePassword', // the current password: the sign-in lockouts, as a password sign-in
].sort();

test("attack on the contract's honesty: 429 is declared exactly on the operations that are throttled", () => {
  const declared = operations()
    .filter((op) => '429' in op.responses)
    .map((op) => op.operationId)
    .sort();
  expect(declared).toEqual(throttled);
});
