import { configure, screen, waitFor } from '@testing-library/react';
import { browserLocation } from '../../login/browser-location';
import { ACCOUNT_WAIT_MS, accountRegion } from '../../test/account-api';
import { BRAZIL, EUROPE, type FakeCall, fakeApi, probeReply, sessionBody } from '../../test/fake-api';
import { REDIRECT, loginPath, renderApp } from '../../test/render-app';

configure({ asyncUtilTimeout: ACCOUNT_WAIT_MS });

const session = sessionBody({ password: 'verified' });

/** Anna signs in with her password in Europe (no second factor); the account page then meets the region. */
function europe() {
  const { route } = accountRegion();
  return (call: FakeCall) => {
    if (call.url.pathname.startsWith('/core/v1/probes/'))
      return call.url.origin === EUROPE ? probeReply('eu-north-1', true) : probeReply('sa-east-1', false, BRAZIL);
    if (call.url.pathname === '/core/v1/sessions' && call.method === 'POST') return { status: 201, body: session };
    if (call.url.pathname === `/core/v1/sessions/${session.id}` && call.method === 'PUT')
      return { status: 200, body: { ...session, accessToken: 'access-2', refreshToken: 'refresh-2' } };
    return route(call);
  };
}

describe('a sign-in with ?next=account', () => {
  test('ends on /account with the new session, then Continue goes to the platform with it', async () => {
    const api = fakeApi(europe());
    const replace = jest.spyOn(browserLocation, 'replace').mockImplementation(() => undefined);
    const { user, location } = renderApp(loginPath('&next=account'));
    await user.type(screen.getByLabelText('Email'), 'anna@demo.test');
    await user.type(screen.getByLabelText('Password'), 'Demo-Password-1!');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Your account' })).toBeTruthy();
    expect(location()).toBe('/account');
    await screen.findByRole('heading', { name: 'Work laptop' });
    const listed = api.calls.find((call) => call.url.pathname === '/core/v1/passkeys');
    expect(listed?.headers.get('authorization')).toBe(`Bearer ${session.accessToken}`);
    expect(replace).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const url = new URL(replace.mock.calls[0][0]);
    expect(`${url.origin}${url.pathname}`).toBe(REDIRECT);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      refreshToken: session.refreshToken,
      sessionId: session.id,
      region: 'eu-north-1',
    });
    expect(window.sessionStorage.getItem('account.session')).toBeNull();
  });

  test('an expired access token is refreshed once with the held refresh token, and Continue hands over the new one', async () => {
    let expired = true;
    const inner = europe();
    const api = fakeApi((call) => {
      const auth = call.headers.get('authorization');
      if (expired && auth === `Bearer ${session.accessToken}` && call.url.pathname === '/core/v1/passkeys') {
        return {
          status: 401,
          body: { status: 'error', error: { httpStatus: 401, code: 'EXPIRED_ACCESS_TOKEN', message: 'expired' } },
        };
      }
      if (call.method === 'PUT') expired = false;
      return inner(call);
    });
    const replace = jest.spyOn(browserLocation, 'replace').mockImplementation(() => undefined);
    const { user } = renderApp(loginPath('&next=account'));
    await user.type(screen.getByLabelText('Email'), 'anna@demo.test');
    await user.type(screen.getByLabelText('Password'), 'Demo-Password-1!');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await screen.findByRole('heading', { name: 'Work laptop' });
    const refreshes = api.calls.filter((call) => call.method === 'PUT');
    expect(refreshes).toHaveLength(1);
    expect(refreshes[0].headers.get('authorization')).toBe(`Bearer ${session.refreshToken}`);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(replace).toHaveBeenCalled());
    expect(new URL(replace.mock.calls[0][0]).searchParams.get('refreshToken')).toBe('refresh-2');
  });

  test('without next, a sign-in goes to the platform as before and leaves no account session', async () => {
    fakeApi(europe());
    const replace = jest.spyOn(browserLocation, 'replace').mockImplementation(() => undefined);
    const { user } = renderApp(loginPath());
    await user.type(screen.getByLabelText('Email'), 'anna@demo.test');
    await user.type(screen.getByLabelText('Password'), 'Demo-Password-1!');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(replace).toHaveBeenCalled());
    expect(new URL(replace.mock.calls[0][0]).searchParams.get('sessionId')).toBe(session.id);
    expect(window.sessionStorage.getItem('account.session')).toBeNull();
  });
});
