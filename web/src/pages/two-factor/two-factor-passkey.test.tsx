import { screen, waitFor } from '@testing-library/react';
import { startAuthentication } from '@simplewebauthn/browser';
import { browserLocation } from '../../login/browser-location';
import { BRAZIL, type FakeCall, type Reply, apiError, fakeApi, sessionBody } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';
import { challengePath, codeSent, givenPendingSession, pending, sessionPath } from '../../test/two-factor-api';
import {
  FLOW_LOADED,
  assertion,
  challengeOf,
  domError,
  givenWebAuthn,
  userHandleOf,
  withoutWebAuthn,
} from '../../test/webauthn';

jest.mock('@simplewebauthn/browser', () => ({
  startAuthentication: jest.fn(),
  startRegistration: jest.fn(),
  WebAuthnAbortService: { cancelCeremony: jest.fn() },
}));
const authenticate = jest.mocked(startAuthentication);

const passkeyOptions = (fill = 9) => ({
  challenge: challengeOf(fill),
  timeout: 300_000,
  rpId: 'localhost',
  userVerification: 'required',
  allowCredentials: [{ id: 'Y3JlZGVudGlhbC0x', type: 'public-key', transports: ['internal'] }],
});
const completed = {
  ...sessionBody({ password: 'verified', passkey: 'verified' }, pending.id),
  refreshToken: 'refresh-new',
};

/** The pending session's challenges: a code by email, and the passkey options from `passkey`; PATCH answers `verify`. */
function api(
  passkey: () => Reply = () => ({ status: 201, body: passkeyOptions() }),
  verify: (call: FakeCall) => Reply = () => ({ status: 200, body: completed }),
) {
  return fakeApi((call) => {
    if (call.url.pathname === challengePath) return (call.body as { passkey?: true }).passkey ? passkey() : codeSent();
    if (call.url.pathname === sessionPath && call.method === 'PATCH') return verify(call);
    throw new Error(`Unexpected call to ${call.url.href}`);
  });
}

const WITH_PASSKEY = { password: 'verified', otpEmail: 'unverified', passkey: 'unverified' };

const passkeyChallenges = (calls: FakeCall[]) =>
  calls.filter((call) => call.url.pathname === challengePath && (call.body as { passkey?: true }).passkey);
/** The passkey button: "Use your passkey" while no code was sent (offered first), "Use a passkey instead" after. */
const PASSKEY_BUTTON = /^Use (your passkey|a passkey instead)$/;
const useInstead = () => screen.findByRole('button', { name: PASSKEY_BUTTON });
const codeRequests = (calls: FakeCall[]) =>
  calls.filter((call) => call.url.pathname === challengePath && !(call.body as { passkey?: true }).passkey);

beforeEach(() => authenticate.mockReset());
afterEach(withoutWebAuthn);

describe('/login/2fa: a passkey offered first (issue 46 §4)', () => {
  test('a user with a passkey this device can use is sent no code on arrival: the passkey is offered first, and a code is sent when she asks for one', async () => {
    givenWebAuthn();
    givenPendingSession(WITH_PASSKEY);
    const { calls } = api();
    const { user } = renderApp('/login/2fa');
    const passkey = await screen.findByRole('button', { name: 'Use your passkey' }, FLOW_LOADED);
    expect(screen.getByText('Confirm it is you with your passkey, or ask for a code by email.')).toBeTruthy();
    await waitFor(() => expect(document.activeElement?.id).toBe('two-factor-title'));
    // The passkey comes before the code field.
    expect(passkey.compareDocumentPosition(screen.getByLabelText('Verification code'))).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(codeRequests(calls)).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Send a code by email' }));
    await screen.findByText('We sent a 6-digit code to a***@demo.test.');
    expect(codeRequests(calls).map((call) => call.body)).toEqual([{ otpEmail: true }]);
    // Now the code is the way on, and the passkey stays on offer beside it.
    expect(screen.getByRole('button', { name: 'Use a passkey instead' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Resend via email' })).toBeTruthy();
  });

  test('when the region answers that the passkey is gone, the code is sent then', async () => {
    givenWebAuthn();
    givenPendingSession(WITH_PASSKEY);
    const { calls } = api(() => apiError(400, 'PASSKEY_NOT_REGISTERED'));
    const { user } = renderApp('/login/2fa');
    await user.click(await screen.findByRole('button', { name: 'Use your passkey' }, FLOW_LOADED));
    await screen.findByText('We sent a 6-digit code to a***@demo.test.');
    expect(codeRequests(calls)).toHaveLength(1);
  });
});

describe('/login/2fa: a passkey instead of the code', () => {
  test('when the session says the user has a passkey, offers it; a press asks for the challenge, and the passkey completes the sign-in', async () => {
    givenWebAuthn();
    givenPendingSession(WITH_PASSKEY);
    const { calls } = api();
    const credential = assertion(userHandleOf('sa-east-1:7'));
    authenticate.mockResolvedValue(credential);
    const replace = jest.spyOn(browserLocation, 'replace').mockImplementation(() => undefined);
    const { user } = renderApp('/login/2fa');
    await user.click(await useInstead());
    await waitFor(() => expect(replace).toHaveBeenCalledTimes(1), FLOW_LOADED);

    const [challenge] = passkeyChallenges(calls);
    expect(passkeyChallenges(calls)).toHaveLength(1);
    expect([challenge.url.origin, challenge.body, challenge.headers.get('authorization')]).toEqual([
      BRAZIL,
      { passkey: true },
      `Bearer ${pending.accessToken}`,
    ]);
    // The options the server gave, as given (allowCredentials: the user's passkeys), in the browser's dialog.
    expect(authenticate).toHaveBeenCalledWith({ optionsJSON: passkeyOptions() });
    const patch = calls.find((call) => call.method === 'PATCH')!;
    expect([patch.url.origin, patch.body, patch.headers.get('authorization')]).toEqual([
      BRAZIL,
      { passkey: credential },
      `Bearer ${pending.accessToken}`,
    ]);
    // Straight to the platform with the rotated session (no passkey offer after a passkey).
    const url = new URL(replace.mock.calls[0][0]);
    expect([url.searchParams.get('refreshToken'), url.searchParams.get('region')]).toEqual([
      'refresh-new',
      'sa-east-1',
    ]);
  });

  test('when the session says nothing of a passkey, the option is not offered and no passkey challenge is asked for', async () => {
    givenWebAuthn();
    givenPendingSession();
    const { calls } = api();
    renderApp('/login/2fa');
    await screen.findByText('We sent a 6-digit code to a***@demo.test.');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('button', { name: 'Use a passkey instead' })).toBeNull();
    expect(passkeyChallenges(calls)).toHaveLength(0);
  });

  test('when the region answers that the user has no passkey (removed since), says so and the option goes', async () => {
    givenWebAuthn();
    givenPendingSession(WITH_PASSKEY);
    api(() => apiError(400, 'PASSKEY_NOT_REGISTERED'));
    const { user } = renderApp('/login/2fa');
    await user.click(await useInstead());
    expect((await screen.findByRole('alert')).textContent).toBe(
      'There is no passkey for your account that can be used here. Enter the code instead.',
    );
    expect(screen.queryByRole('button', { name: PASSKEY_BUTTON })).toBeNull();
    expect(authenticate).not.toHaveBeenCalled();
  });

  test('a browser without WebAuthn is not offered the passkey', async () => {
    givenPendingSession(WITH_PASSKEY);
    const { calls } = api();
    renderApp('/login/2fa');
    await screen.findByText('We sent a 6-digit code to a***@demo.test.');
    expect(passkeyChallenges(calls)).toHaveLength(0);
    expect(screen.queryByRole('button', { name: 'Use a passkey instead' })).toBeNull();
  });

  test('a cancelled ceremony says so (focused), and the next try asks for a new challenge', async () => {
    givenWebAuthn();
    givenPendingSession(WITH_PASSKEY);
    let fill = 0;
    const { calls } = api(() => ({ status: 201, body: passkeyOptions(++fill) }));
    authenticate.mockRejectedValue(domError('NotAllowedError'));
    const { user } = renderApp('/login/2fa');
    await user.click(await useInstead());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      'No passkey was used: the request was cancelled, or this device has no passkey for your account. Try again, or enter the code instead.',
    );
    await waitFor(() => expect(document.activeElement).toBe(alert));
    await user.click(screen.getByRole('button', { name: PASSKEY_BUTTON }));
    await waitFor(() => expect(authenticate).toHaveBeenCalledTimes(2));
    expect(authenticate.mock.calls.map(([{ optionsJSON }]) => optionsJSON.challenge)).toEqual([
      challengeOf(1),
      challengeOf(2),
    ]);
    expect(passkeyChallenges(calls)).toHaveLength(2);
    expect(calls.filter((call) => call.method === 'PATCH')).toHaveLength(0);
  });

  test('an assertion the region refuses says no usable passkey, pointing to the code', async () => {
    givenWebAuthn();
    givenPendingSession(WITH_PASSKEY);
    api(undefined, () => apiError(401, 'INVALID_CREDENTIALS'));
    authenticate.mockResolvedValue(assertion(userHandleOf('sa-east-1:7')));
    const { user } = renderApp('/login/2fa');
    await user.click(await useInstead());
    expect((await screen.findByRole('alert')).textContent).toBe(
      'There is no passkey for your account that can be used here. Enter the code instead.',
    );
  });

  test('when the pending session has ended, says so and offers to log in again', async () => {
    givenWebAuthn();
    givenPendingSession(WITH_PASSKEY);
    api(undefined, () => apiError(401, 'INVALID_SESSION'));
    authenticate.mockResolvedValue(assertion(userHandleOf('sa-east-1:7')));
    const { user } = renderApp('/login/2fa');
    await user.click(await useInstead());
    expect(await screen.findByRole('button', { name: 'Log in again' })).toBeTruthy();
  });
});
