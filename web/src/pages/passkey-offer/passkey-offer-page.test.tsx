import { screen, waitFor } from '@testing-library/react';
import { startRegistration } from '@simplewebauthn/browser';
import { browserLocation } from '../../login/browser-location';
import { ADDED_HERE_KEY, OFFER_DECLINED_KEY } from '../../login/passkey-device';
import { EUROPE, type FakeCall, type Route, apiError, fakeApi, probeReply, sessionBody } from '../../test/fake-api';
import { REDIRECT, loginPath, renderApp } from '../../test/render-app';
import { storeRedirectUrl } from '../../login/sign-in-storage';
import { FLOW_LOADED, attestation, domError, givenWebAuthn, withoutWebAuthn } from '../../test/webauthn';

jest.mock('@simplewebauthn/browser', () => ({
  startAuthentication: jest.fn(),
  startRegistration: jest.fn(),
  WebAuthnAbortService: { cancelCeremony: jest.fn() },
}));
const register = jest.mocked(startRegistration);

const session = sessionBody({ password: 'verified' });
const creationOptions = {
  challenge: 'cmVnaXN0cmF0aW9uLWNoYWxsZW5nZS0zMi1ieXRlcy1sb25nIQ',
  rp: { name: 'Sign-in', id: 'localhost' },
  user: { id: 'ZXUtbm9ydGgtMTo3', name: 'anna@demo.test', displayName: 'Anna Lindqvist' },
  pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
  timeout: 300_000,
  excludeCredentials: [],
  authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  attestation: 'none',
};

/** Anna signs in with her password in Europe (no second factor); enrolment answers `enrol`. */
function europe(enrol: Route = (call) => registered(call)): Route {
  return (call) => {
    if (call.url.pathname.startsWith('/core/v1/probes/'))
      return probeReply(
        call.url.origin === EUROPE ? 'eu-north-1' : 'sa-east-1',
        call.url.origin === EUROPE,
        call.url.origin,
      );
    if (call.url.pathname === '/core/v1/sessions') return { status: 201, body: session };
    return enrol(call);
  };
}

function registered(call: FakeCall) {
  if (call.url.pathname === '/core/v1/passkeys/registration-options') return { status: 200, body: creationOptions };
  if (call.url.pathname === '/core/v1/passkeys')
    return {
      status: 201,
      body: {
        id: '1b4e28ba-2fa1-11d2-883f-0016d3cca427',
        name: 'Passkey',
        createdAt: new Date().toISOString(),
        lastUsedAt: null,
        authenticator: null,
      },
    };
  throw new Error(`Unexpected call to ${call.url.href}`);
}

const enrolment = (calls: FakeCall[]) => calls.filter((call) => call.url.pathname.startsWith('/core/v1/passkeys'));

async function signIn(language = 'en') {
  const view = renderApp(loginPath(), { language });
  await view.user.type(screen.getByLabelText(language === 'sv' ? 'E-post' : 'Email'), 'anna@demo.test');
  await view.user.type(screen.getByLabelText(language === 'sv' ? 'Lösenord' : 'Password'), 'secret');
  await view.user.click(screen.getByRole('button', { name: language === 'sv' ? 'Logga in' : 'Log in' }));
  return view;
}

const offerHeading = () => screen.findByRole('heading', { name: 'Log in faster next time with a passkey' });

beforeEach(() => register.mockReset());
afterEach(withoutWebAuthn);

describe('/login/passkey: the offer after a sign-in with a password', () => {
  test('on a device with a platform authenticator, the sign-in goes to the offer first, its heading focused', async () => {
    givenWebAuthn();
    fakeApi(europe());
    const replace = jest.spyOn(browserLocation, 'replace').mockImplementation(() => undefined);
    const { location } = await signIn();
    const heading = await offerHeading();
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(location()).toBe('/login/passkey');
    expect(document.title).toBe('Log in faster next time with a passkey');
    expect(replace).not.toHaveBeenCalled();
    for (const name of ['Add a passkey', 'Not now', "Don't ask again on this device"])
      expect(screen.getByRole('button', { name })).toBeTruthy();
  });

  test('Add a passkey: registration options with the new session, the ceremony, the passkey registered, then the platform', async () => {
    givenWebAuthn();
    const { calls } = fakeApi(europe());
    const credential = attestation();
    register.mockResolvedValue(credential as never);
    const replace = jest.spyOn(browserLocation, 'replace').mockImplementation(() => undefined);
    const { user } = await signIn();
    await offerHeading();
    await user.click(screen.getByRole('button', { name: 'Add a passkey' }));
    await waitFor(() => expect(replace).toHaveBeenCalledTimes(1), FLOW_LOADED);

    expect(register).toHaveBeenCalledWith({ optionsJSON: creationOptions });
    const [options, added] = enrolment(calls);
    expect([options.method, options.url.origin, options.url.pathname]).toEqual([
      'POST',
      EUROPE,
      '/core/v1/passkeys/registration-options',
    ]);
    expect(options.headers.get('authorization')).toBe(`Bearer ${session.accessToken}`);
    expect([added.method, added.url.origin, added.url.pathname, added.body]).toEqual([
      'POST',
      EUROPE,
      '/core/v1/passkeys',
      { credential },
    ]);
    expect(added.headers.get('authorization')).toBe(`Bearer ${session.accessToken}`);
    const url = new URL(replace.mock.calls[0][0]);
    expect([url.searchParams.get('sessionId'), url.searchParams.get('region')]).toEqual([session.id, 'eu-north-1']);
    // This device has a passkey now: the offer is not made here again, and the session's token left storage.
    expect(window.localStorage.getItem(ADDED_HERE_KEY)).not.toBeNull();
    expect(window.sessionStorage.getItem('signIn.passkeyOffer')).toBeNull();
  });

  test('Not now goes to the platform without a call, and the next sign-in offers again', async () => {
    givenWebAuthn();
    const { calls } = fakeApi(europe());
    const replace = jest.spyOn(browserLocation, 'replace').mockImplementation(() => undefined);
    const { user, unmount } = await signIn();
    await offerHeading();
    await user.click(screen.getByRole('button', { name: 'Not now' }));
    expect(replace).toHaveBeenCalledTimes(1);
    expect(enrolment(calls)).toHaveLength(0);
    expect(window.sessionStorage.getItem('signIn.passkeyOffer')).toBeNull();
    unmount();
    await signIn();
    expect(await offerHeading()).toBeTruthy();
  });

  test("Don't ask again on this device goes to the platform, and the next sign-in on this device goes straight there", async () => {
    givenWebAuthn();
    fakeApi(europe());
    const replace = jest.spyOn(browserLocation, 'replace').mockImplementation(() => undefined);
    const { user, unmount } = await signIn();
    await offerHeading();
    await user.click(screen.getByRole('button', { name: "Don't ask again on this device" }));
    expect(replace).toHaveBeenCalledTimes(1);
    expect(window.localStorage.getItem(OFFER_DECLINED_KEY)).not.toBeNull();
    unmount();
    const { location } = await signIn();
    await waitFor(() => expect(replace).toHaveBeenCalledTimes(2));
    expect(location()).toMatch(/^\/login\?/);
  });

  test('a device without a platform authenticator is not offered a passkey', async () => {
    givenWebAuthn({ platform: false });
    fakeApi(europe());
    const replace = jest.spyOn(browserLocation, 'replace').mockImplementation(() => undefined);
    const { location } = await signIn();
    await waitFor(() => expect(replace).toHaveBeenCalledTimes(1), FLOW_LOADED);
    expect(location()).toMatch(/^\/login\?/);
  });

  test.each([
    [
      'the authenticator already holds a passkey for the account',
      () => Promise.reject(domError('InvalidStateError')),
      europe(),
      'This device already has a passkey for your account. You can use it the next time you log in.',
    ],
    [
      'the ceremony is cancelled',
      () => Promise.reject(domError('NotAllowedError')),
      europe(),
      'No passkey was added: the request was cancelled. You can try again, or continue without one.',
    ],
    [
      'the account has the most passkeys allowed',
      () => Promise.resolve(attestation()),
      europe((call) => (call.url.pathname === '/core/v1/passkeys' ? apiError(409, 'LIMIT_REACHED') : registered(call))),
      'Your account already has as many passkeys as allowed, so no new one was added. You can continue without one.',
    ],
  ])('when %s, says so (focused) and stays; Not now still continues', async (_name, ceremony, route, message) => {
    givenWebAuthn();
    fakeApi(route);
    register.mockImplementation(ceremony as never);
    const replace = jest.spyOn(browserLocation, 'replace').mockImplementation(() => undefined);
    const { user } = await signIn();
    await offerHeading();
    await user.click(screen.getByRole('button', { name: 'Add a passkey' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(message);
    await waitFor(() => expect(document.activeElement).toBe(alert));
    expect(replace).not.toHaveBeenCalled();
    expect(window.localStorage.getItem(ADDED_HERE_KEY)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Not now' }));
    expect(replace).toHaveBeenCalledTimes(1);
  });

  test('in Swedish, the offer is Swedish', async () => {
    givenWebAuthn();
    fakeApi(europe());
    jest.spyOn(browserLocation, 'replace').mockImplementation(() => undefined);
    await signIn('sv');
    expect(
      await screen.findByRole('heading', { name: 'Logga in snabbare nästa gång med en lösennyckel' }),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Fråga inte igen på den här enheten' })).toBeTruthy();
  });

  test.each([
    ['its address is not an allowed platform page', { url: 'https://evil.example/login?refreshToken=r' }],
    ['its API host is not a region of this app (the access token would go there)', { baseUrl: 'https://evil.example' }],
    ["its region is not the API host's", { region: 'sa-east-1' }],
  ])('a stored offer is not used when %s: /login, and nothing is sent', async (_name, tampered) => {
    storeRedirectUrl(REDIRECT);
    window.sessionStorage.setItem(
      'signIn.passkeyOffer',
      JSON.stringify({
        url: `${REDIRECT}?refreshToken=r&sessionId=s&region=eu-north-1`,
        region: 'eu-north-1',
        baseUrl: EUROPE,
        session: { id: session.id, accessToken: session.accessToken },
        ...tampered,
      }),
    );
    givenWebAuthn();
    const { calls } = fakeApi(europe());
    const replace = jest.spyOn(browserLocation, 'replace').mockImplementation(() => undefined);
    const { location } = renderApp('/login/passkey');
    expect(await screen.findByRole('heading', { name: 'Log in to the product' })).toBeTruthy();
    expect(location()).toMatch(/^\/login/);
    expect(replace).not.toHaveBeenCalled();
    expect(enrolment(calls)).toHaveLength(0);
  });

  test('opened without a completed sign-in, goes to /login', async () => {
    storeRedirectUrl(REDIRECT);
    const { location } = renderApp('/login/passkey');
    expect(await screen.findByRole('heading', { name: 'Log in to the product' })).toBeTruthy();
    expect(location()).toBe('/login');
  });
});
