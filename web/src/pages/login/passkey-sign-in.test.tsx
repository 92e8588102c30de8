import { act, screen, waitFor } from '@testing-library/react';
import { startAuthentication } from '@simplewebauthn/browser';
import { browserLocation } from '../../login/browser-location';
import { BRAZIL, EUROPE, type Route, apiError, deferred, fakeApi, sessionBody } from '../../test/fake-api';
import { loginPath, renderApp } from '../../test/render-app';
import {
  FLOW_LOADED,
  assertion,
  authenticationOptions,
  domError,
  givenWebAuthn,
  segmentsOf,
  userHandleOf,
  withoutWebAuthn,
} from '../../test/webauthn';

jest.mock('@simplewebauthn/browser', () => ({
  startAuthentication: jest.fn(),
  startRegistration: jest.fn(),
  WebAuthnAbortService: { cancelCeremony: jest.fn() },
}));
const authenticate = jest.mocked(startAuthentication);

const OPTIONS_PATH = '/core/v1/passkeys/authentication-options';
const SESSIONS_PATH = '/core/v1/sessions';

/** Europe's challenge is all 1s, Brazil's all 2s; sessions answer `session`. */
function regions(session: Route = () => ({ status: 201, body: sessionBody({ passkey: 'verified' }) })): Route {
  return (call) => {
    if (call.url.pathname === OPTIONS_PATH) return authenticationOptions(call.url.origin === EUROPE ? 1 : 2);
    if (call.url.pathname === SESSIONS_PATH) return session(call);
    throw new Error(`Unexpected call to ${call.url.href}`);
  };
}

const passkeyButton = () => screen.findByRole('button', { name: 'Log in with a passkey' });

beforeEach(() => authenticate.mockReset());
afterEach(withoutWebAuthn);

describe('/login: passkeys', () => {
  test('a browser without WebAuthn shows no passkey button and asks no region for a challenge', async () => {
    const { calls } = fakeApi(regions());
    renderApp(loginPath());
    await screen.findByRole('button', { name: 'Log in with SSO' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('button', { name: 'Log in with a passkey' })).toBeNull();
    expect(calls).toHaveLength(0);
  });

  test('the email field offers passkeys in its autofill (autocomplete "username webauthn")', () => {
    renderApp(loginPath());
    expect(screen.getByLabelText('Email').getAttribute('autocomplete')).toBe('username webauthn');
  });

  test('the button asks every region, signs their challenges joined in the configured order, and creates the session in the region the passkey names', async () => {
    givenWebAuthn();
    const { calls } = fakeApi(regions());
    const credential = assertion(userHandleOf('sa-east-1:7'));
    authenticate.mockResolvedValue(credential);
    const replace = jest.spyOn(browserLocation, 'replace').mockImplementation(() => undefined);
    const { user } = renderApp(loginPath());
    await user.click(await passkeyButton());
    await waitFor(() => expect(replace).toHaveBeenCalledTimes(1), FLOW_LOADED);

    expect(authenticate).toHaveBeenCalledTimes(1);
    const [{ optionsJSON, useBrowserAutofill }] = authenticate.mock.calls[0];
    expect(segmentsOf(optionsJSON.challenge)).toEqual([1, 2]);
    expect([optionsJSON.rpId, optionsJSON.userVerification, useBrowserAutofill]).toEqual([
      'localhost',
      'required',
      false,
    ]);
    expect(
      calls
        .filter((call) => call.url.pathname === OPTIONS_PATH)
        .map((call) => call.url.origin)
        .sort(),
    ).toEqual([BRAZIL, EUROPE].sort());
    const sessions = calls.filter((call) => call.url.pathname === SESSIONS_PATH);
    expect(sessions.map((call) => [call.url.origin, call.body])).toEqual([
      [BRAZIL, { grantType: 'passkey', credential }],
    ]);
    // Straight back to the platform, in Brazil: a passkey sign-in is not offered a passkey.
    const url = new URL(replace.mock.calls[0][0]);
    expect([url.searchParams.get('region'), url.searchParams.get('sessionId')]).toEqual([
      'sa-east-1',
      sessionBody().id,
    ]);
  });

  test('a region that cannot give a challenge is left out; a passkey of the other region still signs in', async () => {
    givenWebAuthn();
    const { calls } = fakeApi((call) =>
      call.url.origin === BRAZIL && call.url.pathname === OPTIONS_PATH
        ? apiError(503, 'SERVICE_UNAVAILABLE')
        : regions()(call),
    );
    authenticate.mockResolvedValue(assertion(userHandleOf('eu-north-1:3')));
    const replace = jest.spyOn(browserLocation, 'replace').mockImplementation(() => undefined);
    const { user } = renderApp(loginPath());
    await user.click(await passkeyButton());
    await waitFor(() => expect(replace).toHaveBeenCalledTimes(1), FLOW_LOADED);
    expect(segmentsOf(authenticate.mock.calls[0][0].optionsJSON.challenge)).toEqual([1]);
    expect(calls.filter((call) => call.url.pathname === SESSIONS_PATH).map((call) => call.url.origin)).toEqual([
      EUROPE,
    ]);
  });

  test.each([
    [
      'the ceremony is cancelled',
      () => Promise.reject(domError('NotAllowedError')),
      'No passkey was used: the request was cancelled, or this device has no passkey for your account. Try again, or log in with your email and password.',
    ],
    [
      'the passkey names a region this app does not serve',
      () => Promise.resolve(assertion(userHandleOf('us-east-1:7'))),
      'This passkey was not accepted. It may have been removed from your account. Log in with your email and password instead.',
    ],
    [
      'the passkey has no user handle of this app',
      () => Promise.resolve(assertion()),
      'This passkey was not accepted. It may have been removed from your account. Log in with your email and password instead.',
    ],
    [
      'the page is on an address the passkeys do not belong to',
      () => Promise.reject(domError('SecurityError')),
      'Passkeys cannot be used at this address. Open the sign-in page at its usual address and try again.',
    ],
  ])('when %s, says so above the form (focused) and creates no session', async (_name, ceremony, message) => {
    givenWebAuthn();
    const { calls } = fakeApi(regions());
    authenticate.mockImplementation(ceremony as never);
    const { user } = renderApp(loginPath());
    await user.click(await passkeyButton());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(message);
    await waitFor(() => expect(document.activeElement).toBe(alert));
    expect(calls.filter((call) => call.url.pathname === SESSIONS_PATH)).toHaveLength(0);
  });

  test('when the region refuses the assertion (401), says the passkey was not accepted', async () => {
    givenWebAuthn();
    fakeApi(regions(() => apiError(401, 'INVALID_CREDENTIALS')));
    authenticate.mockResolvedValue(assertion(userHandleOf('eu-north-1:3')));
    const { user } = renderApp(loginPath());
    await user.click(await passkeyButton());
    expect((await screen.findByRole('alert')).textContent).toMatch(/^This passkey was not accepted\./);
  });

  test('when every region rate limits, says how long to wait', async () => {
    givenWebAuthn();
    fakeApi(() =>
      apiError(429, 'TOO_MANY_REQUESTS', { unavailableUntil: new Date(Date.now() + 45_000).toISOString() }),
    );
    const { user } = renderApp(loginPath());
    await user.click(await passkeyButton());
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /^Too many attempts\. Please wait (45|44) seconds and try again\.$/,
    );
    expect(authenticate).not.toHaveBeenCalled();
  });

  test('in Swedish, the button and its messages are Swedish', async () => {
    givenWebAuthn();
    fakeApi(regions());
    authenticate.mockRejectedValue(domError('NotAllowedError'));
    const { user } = renderApp(loginPath(), { language: 'sv' });
    await user.click(await screen.findByRole('button', { name: 'Logga in med en lösennyckel' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Ingen lösennyckel användes/);
  });

  test('with autofill, the passkeys are offered in the email field on arrival, and one picked there signs in', async () => {
    givenWebAuthn({ autofill: true });
    const picked = deferred<ReturnType<typeof assertion>>();
    authenticate.mockImplementation(() => picked.promise);
    const { calls } = fakeApi(regions());
    const replace = jest.spyOn(browserLocation, 'replace').mockImplementation(() => undefined);
    renderApp(loginPath());
    await waitFor(() => expect(authenticate).toHaveBeenCalled());
    const [{ optionsJSON, useBrowserAutofill }] = authenticate.mock.calls.at(-1)!;
    expect([useBrowserAutofill, segmentsOf(optionsJSON.challenge)]).toEqual([true, [1, 2]]);
    expect(calls.filter((call) => call.url.pathname === SESSIONS_PATH)).toHaveLength(0);
    await act(async () => picked.resolve(assertion(userHandleOf('eu-north-1:3'))));
    await waitFor(() => expect(replace).toHaveBeenCalledTimes(1), FLOW_LOADED);
    expect(calls.filter((call) => call.url.pathname === SESSIONS_PATH).map((call) => call.url.origin)).toEqual([
      EUROPE,
    ]);
  });

  test('with autofill, a region that gives no challenge leaves the field without passkeys and shows nothing', async () => {
    givenWebAuthn({ autofill: true });
    fakeApi(() => apiError(503, 'SERVICE_UNAVAILABLE'));
    renderApp(loginPath());
    await passkeyButton();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(authenticate).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
