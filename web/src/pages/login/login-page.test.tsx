import { screen, waitFor } from '@testing-library/react';
import { browserLocation } from '../../login/browser-location';
import { readPendingSession } from '../../login/sign-in-storage';
import {
  BRAZIL,
  EUROPE,
  NETWORK_DOWN,
  type Route,
  apiError,
  fakeApi,
  probeReply,
  sessionBody,
} from '../../test/fake-api';
import { REDIRECT, loginPath, renderApp } from '../../test/render-app';

/** Europe knows the credentials, Brazil does not, and sessions are created with `session` (default: no 2FA). */
function europeOnly(session: Route = () => ({ status: 201, body: sessionBody() })): Route {
  return (call) => {
    if (call.url.pathname.startsWith('/core/v1/probes/')) {
      return call.url.origin === EUROPE ? probeReply('eu-north-1', true) : probeReply('sa-east-1', false, BRAZIL);
    }
    return session(call);
  };
}

async function fillIn(user: ReturnType<typeof renderApp>['user'], email: string, password: string) {
  if (email) await user.type(screen.getByLabelText('Email'), email);
  if (password) await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Log in' }));
}

describe('/login', () => {
  test('when redirectUrl is missing, goes to /invalid-redirect with the warning', async () => {
    const { location } = renderApp('/login');
    expect(
      await screen.findByRole('heading', { name: 'Login redirect failed. Please try logging in again' }),
    ).toBeTruthy();
    expect(
      screen.getByText('Go back to the platform you came from and start the login again from there.'),
    ).toBeTruthy();
    expect(location()).toBe('/invalid-redirect');
  });

  test('when redirectUrl is not on the allow-list, goes to /invalid-redirect and remembers nothing', async () => {
    const { location } = renderApp(`/login?redirectUrl=${encodeURIComponent('https://evil.example/login')}`);
    await screen.findByRole('heading', { name: /Login redirect failed/ });
    expect(location()).toBe('/invalid-redirect');
    expect(window.sessionStorage.getItem('signIn.redirectUrl')).toBeNull();
  });

  test('when redirectUrl is allowed, stores it with the client type and shows the form', () => {
    renderApp(loginPath('&clientType=academy'));
    expect(screen.getByRole('heading', { name: 'Log in to the product' })).toBeTruthy();
    expect(window.sessionStorage.getItem('signIn.redirectUrl')).toBe(REDIRECT);
    expect(window.sessionStorage.getItem('signIn.clientType')).toBe('academy');
    expect(document.title).toBe('Log in to the product');
  });

  test('when a new redirectUrl arrives, an unfinished earlier sign-in is forgotten', () => {
    window.sessionStorage.setItem(
      'signIn.pendingSession',
      JSON.stringify({ session: sessionBody(), region: 'eu-north-1', baseUrl: EUROPE }),
    );
    window.sessionStorage.setItem('signIn.region', 'eu-north-1');
    renderApp(loginPath());
    expect(readPendingSession()).toBeNull();
    expect(window.sessionStorage.getItem('signIn.region')).toBeNull();
  });

  test('when coming back to /login without redirectUrl in the same tab, uses the stored one', () => {
    window.sessionStorage.setItem('signIn.redirectUrl', REDIRECT);
    const { location } = renderApp('/login');
    expect(screen.getByRole('heading', { name: 'Log in to the product' })).toBeTruthy();
    expect(location()).toBe('/login');
  });

  test('shows a link to /forgot-password and a secondary Log in with SSO button that opens the SSO step, sending nothing', async () => {
    const { calls } = fakeApi(europeOnly());
    const { user } = renderApp(loginPath());
    expect(screen.getByRole('link', { name: 'Forgot your password?' }).getAttribute('href')).toBe('/forgot-password');
    const sso = screen.getByRole('button', { name: 'Log in with SSO' });
    expect(sso.className).toContain('button--secondary');
    await user.click(sso);
    expect(await screen.findByRole('heading', { level: 1, name: 'Log in with SSO' })).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  test('when the email is blank, shows Type in your email', async () => {
    const { calls } = fakeApi(europeOnly());
    const { user } = renderApp(loginPath());
    await fillIn(user, '', 'secret');
    expect(await screen.findByText('Type in your email')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  test('when the email is only spaces, shows Type in your email', async () => {
    const { user } = renderApp(loginPath());
    await fillIn(user, '   ', 'secret');
    expect(await screen.findByText('Type in your email')).toBeTruthy();
  });

  test.each(['anna', 'anna@', 'anna@demo', '@demo.test', 'anna demo@demo.test', 'anna@@demo.test'])(
    'when the email is %s, shows Incorrect email',
    async (email) => {
      const { calls } = fakeApi(europeOnly());
      const { user } = renderApp(loginPath());
      await fillIn(user, email, 'secret');
      expect(await screen.findByText('Incorrect email')).toBeTruthy();
      expect(calls).toHaveLength(0);
    },
  );

  test('when the password is blank, shows Type in your password', async () => {
    const { calls } = fakeApi(europeOnly());
    const { user } = renderApp(loginPath());
    await fillIn(user, 'anna@demo.test', '');
    expect(await screen.findByText('Type in your password')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  test('when the password is only spaces, shows Type in your password', async () => {
    const { user } = renderApp(loginPath());
    await fillIn(user, 'anna@demo.test', '   ');
    expect(await screen.findByText('Type in your password')).toBeTruthy();
  });

  test('when a field fails, ties its error to the input and moves focus to the first failing field', async () => {
    const { user } = renderApp(loginPath());
    await fillIn(user, '', '');
    await screen.findByText('Type in your email');
    const email = screen.getByLabelText('Email');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(email.getAttribute('aria-describedby')!)?.textContent).toBe('Type in your email');
    await waitFor(() => expect(document.activeElement).toBe(email));
  });

  test('sends nothing until both fields pass, then probes', async () => {
    const { calls } = fakeApi(europeOnly());
    const { user } = renderApp(loginPath());
    jest.spyOn(browserLocation, 'replace').mockImplementation(() => undefined);
    await fillIn(user, 'anna', '');
    await screen.findByText('Incorrect email');
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'anna@demo.test');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await screen.findByText('Type in your password');
    expect(calls).toHaveLength(0);
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(calls.length).toBeGreaterThan(0));
  });

  test('when no region accepts the credentials, shows Email or password is incorrect on both fields', async () => {
    const { calls } = fakeApi((call) =>
      probeReply(call.url.origin === EUROPE ? 'eu-north-1' : 'sa-east-1', false, call.url.origin),
    );
    const { user } = renderApp(loginPath());
    await fillIn(user, 'anna@demo.test', 'wrong');
    expect(await screen.findAllByText('Email or password is incorrect')).toHaveLength(2);
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Password').getAttribute('aria-invalid')).toBe('true');
    expect(calls.every((call) => call.url.pathname.startsWith('/core/v1/probes/hash/'))).toBe(true);
  });

  test('when the password is changed after Email or password is incorrect, the message goes away', async () => {
    fakeApi((call) => probeReply('eu-north-1', false, call.url.origin));
    const { user } = renderApp(loginPath());
    await fillIn(user, 'anna@demo.test', 'wrong');
    await screen.findAllByText('Email or password is incorrect');
    await user.type(screen.getByLabelText('Password'), '!');
    await waitFor(() => expect(screen.queryByText('Email or password is incorrect')).toBeNull());
  });

  test('when one region is available, creates the session there and goes to the redirect URL with refreshToken, sessionId and region', async () => {
    const { calls } = fakeApi(europeOnly());
    const leave = jest.spyOn(browserLocation, 'replace').mockImplementation(() => undefined);
    const { user } = renderApp(loginPath());
    await fillIn(user, ' Anna@Demo.test ', 'secret');
    await waitFor(() => expect(leave).toHaveBeenCalledTimes(1));
    const url = new URL(leave.mock.calls[0][0]);
    expect(url.origin + url.pathname).toBe(REDIRECT);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      refreshToken: sessionBody().refreshToken,
      sessionId: sessionBody().id,
      region: 'eu-north-1',
    });
    const create = calls.find((call) => call.url.pathname === '/core/v1/sessions');
    expect(create?.url.origin).toBe(EUROPE);
    expect(create?.body).toEqual({ grantType: 'password', email: 'Anna@Demo.test', password: 'secret' });
    expect(create?.headers.get('cosafe-core-api-version')).toBe('1');
    expect(window.sessionStorage.length).toBe(0);
  });

  test('when the session has an unverified email factor, goes to /login/2fa with the session', async () => {
    const session = sessionBody({ password: 'verified', otpEmail: 'unverified' });
    fakeApi(
      europeOnly((call) =>
        call.url.pathname === '/core/v1/sessions'
          ? { status: 201, body: session }
          : {
              status: 201,
              body: {
                sentTo: 'a***@demo.test',
                validUntil: new Date(Date.now() + 600_000).toISOString(),
                resendUnavailableUntil: new Date(Date.now() + 30_000).toISOString(),
              },
            },
      ),
    );
    const leave = jest.spyOn(browserLocation, 'replace').mockImplementation(() => undefined);
    const { user, location } = renderApp(loginPath());
    await fillIn(user, 'anna@demo.test', 'secret');
    expect(await screen.findByRole('heading', { name: 'Verify with email' })).toBeTruthy();
    expect(location()).toBe('/login/2fa');
    expect(readPendingSession()).toEqual({ session, region: 'eu-north-1', baseUrl: EUROPE });
    expect(leave).not.toHaveBeenCalled();
  });

  test('when session creation answers INVALID_CREDENTIALS, shows Email or password is incorrect on both fields', async () => {
    fakeApi(europeOnly(() => apiError(401, 'INVALID_CREDENTIALS')));
    const { user } = renderApp(loginPath());
    await fillIn(user, 'anna@demo.test', 'secret');
    expect(await screen.findAllByText('Email or password is incorrect')).toHaveLength(2);
  });

  test('when session creation answers another error, shows Wrong login and never the server text', async () => {
    fakeApi(europeOnly(() => apiError(403, 'COALERT_CODE_USAGE_LIMIT_REACHED')));
    const { user } = renderApp(loginPath());
    await fillIn(user, 'anna@demo.test', 'secret');
    expect((await screen.findByRole('alert')).textContent).toBe('Wrong login');
    expect(screen.queryByText(/English for developers/)).toBeNull();
  });

  test('when a region sheds the probe at the door (503 with Retry-After), asks it once more and signs in', async () => {
    let shedOnce = true;
    const { calls } = fakeApi((call) => {
      if (call.url.origin === EUROPE && call.url.pathname.startsWith('/core/v1/probes/') && shedOnce) {
        shedOnce = false;
        return { ...apiError(503, 'SERVICE_UNAVAILABLE'), headers: { 'retry-after': '0' } };
      }
      return europeOnly()(call);
    });
    const leave = jest.spyOn(browserLocation, 'replace').mockImplementation(() => undefined);
    const { user } = renderApp(loginPath());
    await fillIn(user, 'anna@demo.test', 'secret');
    await waitFor(() => expect(leave).toHaveBeenCalled());
    const europeProbes = calls.filter((c) => c.url.origin === EUROPE && c.url.pathname.startsWith('/core/v1/probes/'));
    expect(europeProbes).toHaveLength(2);
  });

  test('when every region sheds the probe twice, says the service is busy, never Something went wrong or Wrong login', async () => {
    const { calls } = fakeApi(() => ({ ...apiError(503, 'SERVICE_UNAVAILABLE'), headers: { 'retry-after': '0' } }));
    const { user } = renderApp(loginPath());
    await fillIn(user, 'anna@demo.test', 'secret');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The service is busy right now. Please try again in a moment.',
    );
    expect(calls.filter((c) => c.url.pathname.startsWith('/core/v1/probes/'))).toHaveLength(4);
  });

  test('when a probe answers 429, says how long to wait', async () => {
    const until = new Date(Date.now() + 90_000).toISOString();
    fakeApi(() => apiError(429, 'TOO_MANY_REQUESTS', { unavailableUntil: until }));
    const { user } = renderApp(loginPath());
    await fillIn(user, 'anna@demo.test', 'secret');
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /^Too many attempts\. Please wait (90|89) seconds and try again\.$/,
    );
  });

  test('when Europe answers that the credentials do not match and Brazil is locked (429), shows the wait: the account may live in Brazil, and "incorrect" would be a guess', async () => {
    const until = new Date(Date.now() + 15 * 60_000).toISOString();
    fakeApi((call) =>
      call.url.origin === EUROPE
        ? probeReply('eu-north-1', false)
        : apiError(429, 'TOO_MANY_REQUESTS', { unavailableUntil: until }),
    );
    const { user } = renderApp(loginPath());
    await fillIn(user, 'anna@demo.test', 'Typo-Password-1!');
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Too many attempts\. Please wait (15|14) minutes/);
    expect(screen.queryByText('Email or password is incorrect')).toBeNull();
  });

  test.each([
    ['a proxy answers 502 with its own page', () => ({ status: 502, body: '<html>Bad Gateway</html>' })],
    ['the region answers 503 without Retry-After', () => apiError(503, 'SERVICE_UNAVAILABLE')],
  ])('when %s to session creation, says the service is unavailable, never Wrong login', async (_name, reply) => {
    fakeApi(europeOnly(reply as Route));
    const { user } = renderApp(loginPath());
    await fillIn(user, 'anna@demo.test', 'secret');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The service is unavailable right now. Please try again in a moment.',
    );
  });

  test('when session creation answers 429 for minutes, says how many minutes to wait', async () => {
    const until = new Date(Date.now() + 5 * 60_000).toISOString();
    fakeApi(europeOnly(() => apiError(429, 'TOO_MANY_REQUESTS', { unavailableUntil: until })));
    const { user } = renderApp(loginPath());
    await fillIn(user, 'anna@demo.test', 'secret');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many attempts. Please wait 5 minutes and try again.',
    );
  });

  test('when the API cannot be reached, shows Something went wrong. Please try again.', async () => {
    fakeApi(NETWORK_DOWN);
    const { user } = renderApp(loginPath());
    await fillIn(user, 'anna@demo.test', 'secret');
    expect((await screen.findByRole('alert')).textContent).toBe('Something went wrong. Please try again.');
  });

  test('when clientType is academy, does not probe Brazil', async () => {
    const { calls } = fakeApi(europeOnly());
    jest.spyOn(browserLocation, 'replace').mockImplementation(() => undefined);
    const { user } = renderApp(loginPath('&clientType=academy'));
    await fillIn(user, 'anna@demo.test', 'secret');
    await waitFor(() => expect(calls.some((call) => call.url.pathname === '/core/v1/sessions')).toBe(true));
    expect(calls.some((call) => call.url.origin === BRAZIL)).toBe(false);
  });

  test('the password toggle shows and hides the password', async () => {
    const { user } = renderApp(loginPath());
    const password = screen.getByLabelText('Password');
    expect(password.getAttribute('type')).toBe('password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password.getAttribute('type')).toBe('text');
    await user.click(screen.getByRole('button', { name: 'Show password', pressed: true }));
    expect(password.getAttribute('type')).toBe('password');
  });

  test('when shown in Swedish, the validation messages are Swedish', async () => {
    const { user } = renderApp(loginPath(), { language: 'sv' });
    await user.click(screen.getByRole('button', { name: 'Logga in' }));
    expect(await screen.findByText('Skriv in din e-postadress')).toBeTruthy();
    expect(screen.getByText('Skriv in ditt lösenord')).toBeTruthy();
  });
});
