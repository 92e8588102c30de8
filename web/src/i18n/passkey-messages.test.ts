import { ApiFailure } from '../api/api-failure';
import { PasskeyFailure, ceremony, classifyWebAuthnError } from '../login/passkey-failure';
import { createTestI18n } from '../test/i18n';
import { passkeyFailureMessage } from './passkey-messages';

/** A DOMException as the browser throws it from navigator.credentials.create()/get(). */
const dom = (name: string) => new DOMException('The operation either timed out or was not allowed.', name);

/** What @simplewebauthn/browser throws: a WebAuthnError keeping the browser's name, with its own code. */
function webAuthnError(name: string, code: string): Error {
  const error = new Error('wrapped', { cause: dom(name) }) as Error & { code: string };
  error.name = name;
  error.code = code;
  return error;
}

describe('classifyWebAuthnError', () => {
  test.each([
    ['NotAllowedError (cancelled, refused, no passkey that fits)', dom('NotAllowedError'), 'get', 'cancelled'],
    ['NotAllowedError when adding', dom('NotAllowedError'), 'create', 'cancelled'],
    ['AbortError (the app stopped it)', dom('AbortError'), 'get', 'aborted'],
    ['ERROR_CEREMONY_ABORTED', webAuthnError('AbortError', 'ERROR_CEREMONY_ABORTED'), 'get', 'aborted'],
    ['InvalidStateError when adding', dom('InvalidStateError'), 'create', 'alreadyRegistered'],
    [
      'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED',
      webAuthnError('InvalidStateError', 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED'),
      'create',
      'alreadyRegistered',
    ],
    ['InvalidStateError when signing in', dom('InvalidStateError'), 'get', 'failed'],
    ['SecurityError (origin)', dom('SecurityError'), 'get', 'security'],
    ['ERROR_INVALID_RP_ID', webAuthnError('SecurityError', 'ERROR_INVALID_RP_ID'), 'create', 'security'],
    ['ERROR_INVALID_DOMAIN', webAuthnError('SecurityError', 'ERROR_INVALID_DOMAIN'), 'get', 'security'],
    ['NotSupportedError', dom('NotSupportedError'), 'create', 'unsupported'],
    ['ConstraintError (no user verification)', dom('ConstraintError'), 'create', 'unsupported'],
    [
      'no user verification, as @simplewebauthn/browser names it',
      webAuthnError('ConstraintError', 'ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT'),
      'create',
      'unsupported',
    ],
    ['no WebAuthn at all', new Error('WebAuthn is not supported in this browser'), 'get', 'unsupported'],
    ['UnknownError', dom('UnknownError'), 'get', 'failed'],
    ['anything else', new TypeError('boom'), 'get', 'failed'],
  ] as const)('%s → %s', (_name, error, kind, problem) => {
    expect(classifyWebAuthnError(error, kind)).toBe(problem);
  });

  test('NotAllowedError at the end of the timeout is a timeout, earlier a cancel', () => {
    expect(classifyWebAuthnError(dom('NotAllowedError'), 'get', { elapsedMs: 59_500, timeoutMs: 60_000 })).toBe(
      'timedOut',
    );
    expect(classifyWebAuthnError(dom('NotAllowedError'), 'get', { elapsedMs: 3_000, timeoutMs: 60_000 })).toBe(
      'cancelled',
    );
    expect(classifyWebAuthnError(dom('NotAllowedError'), 'get', { elapsedMs: 90_000 })).toBe('cancelled');
  });

  test('ceremony() turns a failure into a PasskeyFailure with its cause, and passes a result through', async () => {
    await expect(ceremony('get', 60_000, async () => 'ok')).resolves.toBe('ok');
    const cause = dom('NotAllowedError');
    const failure = await ceremony('get', 60_000, () => Promise.reject(cause)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PasskeyFailure);
    expect([(failure as PasskeyFailure).problem, (failure as PasskeyFailure).cause]).toEqual(['cancelled', cause]);
  });
});

describe('passkeyFailureMessage', () => {
  const t = createTestI18n('en').t;
  const text = (error: unknown, context: Parameters<typeof passkeyFailureMessage>[1]) => {
    const message = passkeyFailureMessage(error, context);
    return message && t(message.key);
  };

  test('every WebAuthn problem has a message of its own in every context, never the generic one', () => {
    const generic = t('errors.generic');
    for (const problem of [
      'cancelled',
      'timedOut',
      'alreadyRegistered',
      'security',
      'unsupported',
      'notRecognised',
      'failed',
    ] as const) {
      for (const context of ['signIn', 'secondFactor', 'register'] as const) {
        const shown = text(new PasskeyFailure(problem), context);
        expect({
          problem,
          context,
          shown: typeof shown === 'string' && shown !== generic && !shown.startsWith('passkey.'),
        }).toEqual({
          problem,
          context,
          shown: true,
        });
      }
    }
  });

  test('a ceremony the app stopped itself shows nothing', () => {
    expect(passkeyFailureMessage(new PasskeyFailure('aborted'), 'signIn')).toBeNull();
  });

  // Named by the failure, not by the object: a printed error carries its stack, and with it the checkout's path.
  const failures = [
    [new PasskeyFailure('cancelled'), 'signIn', /^No passkey was used: .* log in with your email and password\.$/],
    [new PasskeyFailure('cancelled'), 'secondFactor', /^No passkey was used: .* enter the code instead\.$/],
    [new PasskeyFailure('cancelled'), 'register', /^No passkey was added: the request was cancelled\./],
    [new PasskeyFailure('timedOut'), 'signIn', /^The passkey request timed out\./],
    [new PasskeyFailure('alreadyRegistered'), 'register', /^This device already has a passkey for your account\./],
    [new PasskeyFailure('security'), 'signIn', /^Passkeys cannot be used at this address\./],
    [new PasskeyFailure('unsupported'), 'signIn', /^This browser or device cannot use passkeys\./],
    [new PasskeyFailure('notRecognised'), 'signIn', /^This passkey was not accepted\./],
    [new ApiFailure('INVALID_CREDENTIALS', 401), 'signIn', /^This passkey was not accepted\./],
    [
      new ApiFailure('INVALID_CREDENTIALS', 401),
      'secondFactor',
      /^There is no passkey for your account that can be used here\./,
    ],
    [new ApiFailure('LIMIT_REACHED', 409), 'register', /^Your account already has as many passkeys as allowed/],
    [new ApiFailure('REAUTHENTICATION_REQUIRED', 401), 'register', /^Adding a passkey needs a recent sign-in\./],
    [new ApiFailure('BAD_REQUEST', 400), 'signIn', /^The passkey could not be used\./],
    [new ApiFailure('BAD_REQUEST', 400), 'register', /^The passkey could not be added\./],
    [new ApiFailure('NETWORK_ERROR', 0), 'signIn', /^Something went wrong\. Please try again\.$/],
    [new ApiFailure('TOO_MANY_REQUESTS', 429), 'signIn', /^Too many requests\./],
    [new ApiFailure('SERVICE_UNAVAILABLE', 503, undefined, 0, [], true), 'signIn', /^The service is busy right now\./],
  ] as const;
  test.each(
    failures.map(([error, context, expected]) => [
      error instanceof ApiFailure ? `${error.code} (${error.httpStatus})` : error.message,
      context,
      error,
      expected,
    ]),
  )('%s in %s', (_failure, context, error, expected) => {
    expect(text(error, context)).toMatch(expected);
  });
});
