import { ApiFailure } from '../api/api-failure';
import { PasskeyFailure, type PasskeyProblem } from '../login/passkey-failure';
import { BUSY, type Message, rateLimitedMessage } from './failure-messages';
import type { TranslationKey } from './keys';

/** The region's answer to a passkey challenge for a user who has no passkey there. */
export const NO_PASSKEY_CODE = 'PASSKEY_NOT_REGISTERED';

/** Where the passkey was asked for: the texts differ ("log in with your password" / "enter the code instead"). */
export type PasskeyContext = 'signIn' | 'secondFactor' | 'register';

const PROBLEM_KEYS: Record<Exclude<PasskeyProblem, 'aborted'>, Record<PasskeyContext, TranslationKey>> = {
  cancelled: {
    signIn: 'passkey.errors.cancelled',
    secondFactor: 'passkey.errors.cancelledSecondFactor',
    register: 'passkey.errors.registrationCancelled',
  },
  timedOut: {
    signIn: 'passkey.errors.timedOut',
    secondFactor: 'passkey.errors.timedOut',
    register: 'passkey.errors.timedOut',
  },
  alreadyRegistered: {
    signIn: 'passkey.errors.failed',
    secondFactor: 'passkey.errors.failed',
    register: 'passkey.errors.alreadyRegistered',
  },
  security: {
    signIn: 'passkey.errors.security',
    secondFactor: 'passkey.errors.security',
    register: 'passkey.errors.security',
  },
  unsupported: {
    signIn: 'passkey.errors.unsupported',
    secondFactor: 'passkey.errors.unsupportedSecondFactor',
    register: 'passkey.errors.unsupportedRegister',
  },
  notRecognised: {
    signIn: 'passkey.errors.notRecognised',
    secondFactor: 'passkey.errors.noPasskey',
    register: 'passkey.errors.failed',
  },
  failed: {
    signIn: 'passkey.errors.failed',
    secondFactor: 'passkey.errors.failed',
    register: 'passkey.errors.registrationFailed',
  },
};

/**
 * The message for a failed passkey step, or null when there is nothing to say (the app stopped the ceremony
 * itself). A WebAuthn failure always gets a passkey message of its own, never "Something went wrong"; the API's
 * answers get theirs (a passkey no region accepts, the limit of passkeys, a wait).
 */
export function passkeyFailureMessage(error: unknown, context: PasskeyContext): Message | null {
  if (error instanceof PasskeyFailure)
    return error.problem === 'aborted' ? null : { key: PROBLEM_KEYS[error.problem][context] };
  if (!(error instanceof ApiFailure)) return { key: PROBLEM_KEYS.failed[context] };
  if (error.shed) return BUSY;
  switch (error.code) {
    case 'TOO_MANY_REQUESTS':
      return rateLimitedMessage(error);
    case 'NETWORK_ERROR':
      return { key: 'errors.generic' };
    case 'INVALID_CREDENTIALS':
      // The assertion was refused: an unknown or removed passkey, one of another user, a counter gone backwards.
      return { key: PROBLEM_KEYS.notRecognised[context] };
    case NO_PASSKEY_CODE:
      return { key: 'passkey.errors.noPasskey' };
    case 'PASSKEY_CHALLENGE_EXPIRED':
      // The challenge was used up or ran out while the browser's dialog was open.
      return { key: 'passkey.errors.timedOut' };
    case 'LIMIT_REACHED':
      return { key: 'passkey.errors.limitReached' };
    case 'REAUTHENTICATION_REQUIRED':
      // Changing a factor needs a proof of the credentials within minutes; the offer right after a sign-in has one.
      return { key: 'passkey.errors.reauthenticate' };
    default:
      return { key: PROBLEM_KEYS.failed[context] };
  }
}

/** The app stopped the ceremony itself (a new one started, the page moved on, the autofill's refresh). */
export const wasAborted = (error: unknown) => error instanceof PasskeyFailure && error.problem === 'aborted';

/**
 * A failure of the email field's autofill: nothing to say when the user dismissed it or it ran out (the user pressed
 * nothing), else what the button would say.
 */
export function autofillFailureMessage(error: unknown): Message | null {
  const quiet = error instanceof PasskeyFailure && ['aborted', 'cancelled', 'timedOut'].includes(error.problem);
  return quiet ? null : passkeyFailureMessage(error, 'signIn');
}
