import { configure, screen, waitFor, within } from '@testing-library/react';
import { startAuthentication, startRegistration } from '@simplewebauthn/browser';
import {
  HANDED_OVER,
  PASSWORD,
  SESSION_ID,
  accountRegion,
  passkeyChanges as changes,
  phone,
  ACCOUNT_WAIT_MS,
} from '../../test/account-api';
import { EUROPE, apiError, fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';
import { ACCOUNT_SESSION_KEY } from '../../login/account-session';

configure({ asyncUtilTimeout: ACCOUNT_WAIT_MS });

jest.mock('@simplewebauthn/browser', () => ({
  startAuthentication: jest.fn(),
  startRegistration: jest.fn(),
  WebAuthnAbortService: { cancelCeremony: jest.fn() },
}));
const authenticate = jest.mocked(startAuthentication);
const register = jest.mocked(startRegistration);

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
    const api = fakeApi(accountRegion().route);
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
    const api = fakeApi(accountRegion().route);
    renderApp(`/account#region=elsewhere&sessionId=${SESSION_ID}&accessToken=access-1`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Open your account from the app' })).toBeTruthy();
    expect(api.calls).toHaveLength(0);
  });

  test('a rename answered REAUTHENTICATION_REQUIRED asks for the password, proves it, then renames', async () => {
    const { route } = accountRegion();
    const api = fakeApi(route);
    const { user } = renderApp(HANDED_OVER);
    await user.click(await screen.findByRole('button', { name: 'Rename Work laptop' }));
    const name = screen.getByRole('textbox', { name: 'Name of the passkey' });
    await user.clear(name);
    await user.type(name, 'Office PC');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const prompt = await screen.findByRole('dialog', { name: "Confirm it's you" });
    expect(document.activeElement).toBe(within(prompt).getByRole('heading', { name: "Confirm it's you" }));
    await user.type(within(prompt).getByLabelText('Password'), PASSWORD);
    await user.click(within(prompt).getByRole('button', { name: 'Confirm' }));

    expect(await screen.findByRole('heading', { name: 'Office PC' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    const reauth = api.calls.find((call) => call.url.pathname.endsWith('/reauthentication'));
    expect(reauth?.body).toEqual({ password: PASSWORD });
    expect(changes(api.calls).map((call) => [call.method, call.body])).toEqual([
      ['PATCH', { name: 'Office PC' }],
      ['PATCH', { name: 'Office PC' }],
    ]);
  });

  test('a wrong password in the prompt says it was not accepted and changes nothing', async () => {
    const api = fakeApi(accountRegion().route);
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
    const api = fakeApi(accountRegion().route);
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
    const api = fakeApi(accountRegion().route);
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
    fakeApi(accountRegion().route);
    renderApp(HANDED_OVER, { language: 'sv' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Ditt konto' })).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Byt namn på Work laptop' })).toBeTruthy();
  });

  test("Add a passkey registers this device's passkey and lists it, said aloud", async () => {
    register.mockResolvedValue({
      id: 'new',
      rawId: 'new',
      type: 'public-key',
      response: { clientDataJSON: 'e30', attestationObject: 'AA', transports: ['internal'] },
      clientExtensionResults: {},
    });
    const api = fakeApi(accountRegion().route);
    const { user } = renderApp(HANDED_OVER);
    await user.click(await screen.findByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByRole('heading', { name: 'Passkey' })).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('announcer').textContent).toBe('Passkey added.'));
    const registered = api.calls.find((call) => call.method === 'POST' && call.url.pathname === '/core/v1/passkeys');
    expect(registered?.headers.get('authorization')).toBe('Bearer access-1');
  });

  test('at the limit of passkeys, Add says so and lists nothing new', async () => {
    register.mockResolvedValue({
      id: 'new',
      rawId: 'new',
      type: 'public-key',
      response: { clientDataJSON: 'e30', attestationObject: 'AA', transports: ['internal'] },
      clientExtensionResults: {},
    });
    const ten = Array.from({ length: 10 }, (_, index) => ({
      ...phone,
      id: `00000000-0000-4000-8000-00000000000${index}`,
      name: `Key ${index}`,
    }));
    fakeApi(accountRegion({ passkeys: ten }).route);
    const { user } = renderApp(HANDED_OVER);
    await user.click(await screen.findByRole('button', { name: 'Add a passkey' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Your account already has as many passkeys as allowed, so no new one was added. You can continue without one.',
    );
  });

  test('a rename to nothing but spaces is refused on the field, and nothing is sent', async () => {
    const api = fakeApi(accountRegion().route);
    const { user } = renderApp(HANDED_OVER);
    await user.click(await screen.findByRole('button', { name: 'Rename Work laptop' }));
    const name = screen.getByRole('textbox', { name: 'Name of the passkey' });
    await user.clear(name);
    await user.type(name, '   ');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByText('Type in a name')).id).toBe(`${name.id}-error`);
    expect(changes(api.calls)).toHaveLength(0);
  });
});
