/**
 * Why a passkey ceremony did not give the app what it asked for, in the words the user is told (the texts are in
 * i18n/passkey-messages.ts). The browser names WebAuthn failures with a handful of DOMException names, and
 * @simplewebauthn/browser wraps them in a WebAuthnError that keeps the name and adds a `code`.
 */
export type PasskeyProblem =
  /** The user closed the browser's dialog, refused, or the device has no passkey that fits (NotAllowedError). */
  | 'cancelled'
  /** The dialog stayed open for the whole time the options allow (also NotAllowedError). */
  | 'timedOut'
  /** The app itself stopped the ceremony (another one started, the page moved on): nothing to show. */
  | 'aborted'
  /** This device already holds a passkey for the account (InvalidStateError when adding one). */
  | 'alreadyRegistered'
  /** The page's address may not use passkeys of the relying party (SecurityError: origin or RP ID). */
  | 'security'
  /** The browser or device cannot make or use this kind of passkey (no WebAuthn, no user verification). */
  | 'unsupported'
  /** The passkey answered, but no region this app serves knows it (its user handle names none of them). */
  | 'notRecognised'
  /** Anything else the authenticator reported (UnknownError…). */
  | 'failed';

export class PasskeyFailure extends Error {
  constructor(
    readonly problem: PasskeyProblem,
    options?: { cause?: unknown },
  ) {
    super(`Passkey: ${problem}`, options);
    this.name = 'PasskeyFailure';
  }
}

export type Ceremony = 'create' | 'get';

export interface CeremonyTiming {
  /** How long the ceremony ran before it failed, in ms. */
  elapsedMs: number;
  /** The timeout the options gave the browser, in ms (absent: none). */
  timeoutMs?: number;
}

/** Browsers end a ceremony at its timeout with NotAllowedError, like a cancel: a failure this close to it is the timeout. */
const TIMEOUT_SLACK_MS = 1000;

const UNSUPPORTED_CODES = [
  'ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT',
  'ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT',
  'ERROR_AUTHENTICATOR_NO_SUPPORTED_PUBKEYCREDPARAMS_ALG',
];

/** What a failed `navigator.credentials.create()` / `.get()` (directly or through @simplewebauthn/browser) means. */
export function classifyWebAuthnError(error: unknown, ceremony: Ceremony, timing?: CeremonyTiming): PasskeyProblem {
  if (error instanceof PasskeyFailure) return error.problem;
  const name = error instanceof Error || isDomExceptionLike(error) ? error.name : '';
  const code = typeof (error as { code?: unknown } | null)?.code === 'string' ? (error as { code: string }).code : '';
  if (code === 'ERROR_CEREMONY_ABORTED' || name === 'AbortError') return 'aborted';
  if (code === 'ERROR_INVALID_DOMAIN' || code === 'ERROR_INVALID_RP_ID' || name === 'SecurityError') return 'security';
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return 'alreadyRegistered';
  if (name === 'InvalidStateError') return ceremony === 'create' ? 'alreadyRegistered' : 'failed';
  if (UNSUPPORTED_CODES.includes(code) || name === 'NotSupportedError' || name === 'ConstraintError')
    return 'unsupported';
  if (name === 'NotAllowedError') {
    const timedOut =
      timing?.timeoutMs !== undefined &&
      timing.timeoutMs > 0 &&
      timing.elapsedMs >= timing.timeoutMs - TIMEOUT_SLACK_MS;
    return timedOut ? 'timedOut' : 'cancelled';
  }
  // @simplewebauthn/browser says so in plain Errors when the browser has no WebAuthn (or no autofill) at all.
  if (error instanceof Error && /not supported/i.test(error.message)) return 'unsupported';
  return 'failed';
}

function isDomExceptionLike(value: unknown): value is { name: string } {
  return typeof value === 'object' && value !== null && typeof (value as { name?: unknown }).name === 'string';
}

/** Runs one ceremony, turning its failure into a PasskeyFailure with the problem it means. */
export async function ceremony<T>(kind: Ceremony, timeoutMs: number | undefined, run: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await run();
  } catch (error) {
    const problem = classifyWebAuthnError(error, kind, { elapsedMs: Date.now() - started, timeoutMs });
    throw new PasskeyFailure(problem, { cause: error });
  }
}
