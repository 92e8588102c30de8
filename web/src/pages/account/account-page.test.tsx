import { screen, waitFor, within } from '@testing-library/react';
import { startAuthentication } from '@simplewebauthn/browser';
import type { components } from '../../../../generated/core-api';
import { EUROPE, type FakeCall, type Route, apiError, fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';
import { ACCOUNT_SESSION_KEY } from './account-session';

jest.mock('@simplewebauthn/browser', () => ({
  startAuthentication: jest.fn(),
  startRegistration: jest.fn(),
  WebAuthnAbortService: { cancelCeremony: jest.fn() },
}));
const authenticate = jest.mocked(startAuthentication);

type Passkey = components['schemas']['Passkey'];

const SESSION_ID = '0b6f2d4e-8a51-4c55-9a8e-3f3f6a0d2c11';
const HANDED_OVER = `/account#region=eu-north-1&sessionId=${SESSION_ID}&accessToken=access-1`;

const laptop: Passkey = {
  id: '3f2c7a9e-1b4d-4e6f-8a0b-2c4d6e8f0a1b',
  name: 'Work laptop',
  createdAt: '2026-11-22T08:00:00.000Z',
  lastUsedAt: '2026-11-23T07:45:12.000Z',
  authenticator: 'Windows Hello',
  suspicious: false,
};
const phone: Passkey = { ...laptop, id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', name: 'Phone', authenticator: null };

const list = (data: Passkey[]) => ({
  status: 200,
  body: { data, pagination: { totalCount: data.length, offset: 0, limit: 10 } },
});

/** The region: her passkeys, and a recent proof needed for any change until `proven` (her password is `right`). */
function region({ passkeys = [laptop, phone], proven = false, right = 'Correct horse 1!' } = {}) {
  const state = { passkeys: [...passkeys], proven };
  const route: Route = (call: FakeCall) => {
    const path = call.url.pathname;
    if (call.method === 'GET' && path === '/core/v1/passkeys') return list(state.passkeys);
    if (path === `/core/v1/sessions/${SESSION_ID}/reauthentication`) {
      const body = call.body as { password?: string; passkey?: unknown };
      if (body.password !== undefined && body.password !== right) return apiError(401, 'INVALID_CREDENTIALS');
      state.proven = true;
      return { status: 200, body: { provenAt: new Date().toISOString(), validUntil: new Date().toISOString() } };
    }
    if (path === '/core/v1/passkeys/authentication-options')
      return { status: 200, body: { challenge: 'Y2hhbGxlbmdl', rpId: 'localhost', timeout: 60_000 } };
    const id = path.replace('/core/v1/passkeys/', '');
    if (call.method === 'PATCH' || call.method === 'DELETE') {
      if (!state.proven) return apiError(401, 'REAUTHENTICATION_REQUIRED');
      if (call.method === 'DELETE') {
        state.passkeys = state.passkeys.filter((passkey) => passkey.id !== id);
        return { status: 204 };
      }
      const name = (call.body as { name: string }).name;
      state.passkeys = state.passkeys.map((passkey) => (passkey.id === id ? { ...passkey, name } : passkey));
      return { status: 200, body: state.passkeys.find((passkey) => passkey.id === id) };
    }
    throw new Error(`Unexpected call ${call.method} ${call.url.href}`);
  };
  return { state, route };
}

const changes = (calls: FakeCall[]) => calls.filter((call) => call.method === 'PATCH' || call.method === 'DELETE');

describe('/account', () => {
  test('without a session, says to open the account from the app and calls nothing', async () => {
    const api = fakeApi(() => {
      throw new Error('no call expected');
    });
    renderApp('/account');
    expect(await screen.findByRole('heading', { level: 1, name: 'Open your account from the app' })).toBeTruthy();
    expect(api.calls).toHaveLength(0);
  });

  test('takes the session a platform hands over in the fragment, removes it from the address, and lists her passkeys with its access token', async () => {
    const api = fakeApi(region().route);
    const view = renderApp(HANDED_OVER);
    const passkeys = await screen.findByRole('region', { name: 'Passkeys' });
    expect(await within(passkeys).findByRole('heading', { name: 'Work laptop' })).toBeTruthy();
    expect(within(passkeys).getByRole('heading', { name: 'Phone' })).toBeTruthy();
    expect(view.location()).toBe('/account');
    expect(api.calls[0].url.origin).toBe(EUROPE);
    expect(api.calls[0].headers.get('authorization')).toBe('Bearer access-1');
    expect(JSON.parse(window.sessionStorage.getItem(ACCOUNT_SESSION_KEY) ?? '{}')).toMatchObject({
      sessionId: SESSION_ID,
      accessToken: 'access-1',
      region: 'eu-north-1',
    });
  });

  test('a fragment naming a region the app does not serve is no session (no token is sent anywhere)', async () => {
    const api = fakeApi(region().route);
    renderApp(`/account#region=elsewhere&sessionId=${SESSION_ID}&accessToken=access-1`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Open your account from the app' })).toBeTruthy();
    expect(api.calls).toHaveLength(0);
  });

  test('a rename answered REAUTHENTICATION_REQUIRED asks for the password, proves it, then renames', async () => {
    const { route } = region();
    const api = fakeApi(route);
    const { user } = renderApp(HANDED_OVER);
    await user.click(await screen.findByRole('button', { name: 'Rename Work laptop' }));
    const name = screen.getByRole('textbox', { name: 'Name of the passkey' });
    await user.clear(name);
    await user.type(name, 'Office PC');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const prompt = await screen.findByRole('dialog', { name: "Confirm it's you" });
    expect(document.activeElement).toBe(within(prompt).getByRole('heading', { name: "Confirm it's you" }));
    await user.type(within(prompt).getByLabelText('Password'), 'Correct horse 1!');
    await user.click(within(prompt).getByRole('button', { name: 'Confirm' }));

    expect(await screen.findByRole('heading', { name: 'Office PC' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    const reauth = api.calls.find((call) => call.url.pathname.endsWith('/reauthentication'));
    expect(reauth?.body).toEqual({ password: 'Correct horse 1!' });
    expect(changes(api.calls).map((call) => [call.method, call.body])).toEqual([
      ['PATCH', { name: 'Office PC' }],
      ['PATCH', { name: 'Office PC' }],
    ]);
  });

  test('a wrong password in the prompt says it was not accepted and changes nothing', async () => {
    const api = fakeApi(region().route);
    const { user } = renderApp(HANDED_OVER);
    await user.click(await screen.findByRole('button', { name: 'Remove Phone' }));
    await user.click(screen.getByRole('button', { name: 'Yes, remove it' }));
    const prompt = await screen.findByRole('dialog', { name: "Confirm it's you" });
    await user.type(within(prompt).getByLabelText('Password'), 'wrong');
    await user.click(within(prompt).getByRole('button', { name: 'Confirm' }));
    expect((await within(prompt).findByRole('alert')).textContent).toBe(
      'That password or passkey was not accepted. Please try again.',
    );
    expect(changes(api.calls)).toHaveLength(1);
  });

  test('Cancel in the prompt leaves the passkey in place, says nothing and gives the focus back', async () => {
    const api = fakeApi(region().route);
    const { user } = renderApp(HANDED_OVER);
    await user.click(await screen.findByRole('button', { name: 'Remove Phone' }));
    await user.click(screen.getByRole('button', { name: 'Yes, remove it' }));
    const prompt = await screen.findByRole('dialog', { name: "Confirm it's you" });
    await user.click(within(prompt).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('heading', { name: 'Phone' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Yes, remove it' }));
    expect(changes(api.calls)).toHaveLength(1);
  });

  test('a removal proven with a passkey removes it from the list', async () => {
    authenticate.mockResolvedValue({
      id: 'cred',
      rawId: 'cred',
      type: 'public-key',
      response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA', userHandle: 'ZXUtbm9ydGgtMTo3' },
      clientExtensionResults: {},
    });
    const api = fakeApi(region().route);
    const { user } = renderApp(HANDED_OVER);
    await user.click(await screen.findByRole('button', { name: 'Remove Phone' }));
    await user.click(screen.getByRole('button', { name: 'Yes, remove it' }));
    const prompt = await screen.findByRole('dialog', { name: "Confirm it's you" });
    await user.click(within(prompt).getByRole('button', { name: 'Use a passkey' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Phone' })).toBeNull());
    expect(screen.getByRole('heading', { name: 'Work laptop' })).toBeTruthy();
    const reauth = api.calls.find((call) => call.url.pathname.endsWith('/reauthentication'));
    expect(reauth?.body).toMatchObject({ passkey: { id: 'cred', type: 'public-key' } });
    expect(changes(api.calls).map((call) => call.method)).toEqual(['DELETE', 'DELETE']);
  });

  test('when the access token has run out (no refresh token held), says the session ended', async () => {
    fakeApi(() => apiError(401, 'EXPIRED_ACCESS_TOKEN'));
    renderApp(HANDED_OVER);
    expect(await screen.findByRole('heading', { level: 1, name: 'Your session has ended' })).toBeTruthy();
  });

  test('in Swedish, the page and its passkeys read in Swedish', async () => {
    fakeApi(region().route);
    renderApp(HANDED_OVER, { language: 'sv' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Ditt konto' })).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Byt namn på Work laptop' })).toBeTruthy();
  });
});
