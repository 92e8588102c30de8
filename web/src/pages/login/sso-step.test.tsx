import { screen, waitFor, within } from '@testing-library/react';
import { browserLocation } from '../../login/browser-location';
import { takeSsoAttempt } from '../../login/sso-storage';
import {
  BRAZIL,
  EUROPE,
  NETWORK_DOWN,
  type FakeCall,
  type Route,
  apiError,
  fakeApi,
  idpProbeReply,
  sessionBody,
} from '../../test/fake-api';
import { loginPath, renderApp } from '../../test/render-app';

const IDP = 'http://127.0.0.1:4300/auth?client_id=sign-in-dev';
const unverified = sessionBody({ oidc: 'unverified' });

/** Europe has SSO (`type`) for every domain, Brazil none; sessions and challenges answer `rest`. */
function europeSso(type: 'oidc' | 'saml' | 'skolon' | null = 'oidc', rest: Route = defaultRest): Route {
  return (call) => {
    if (call.url.pathname.startsWith('/core/v1/probes/idpDomain/')) {
      return call.url.origin === EUROPE ? idpProbeReply('eu-north-1', type) : idpProbeReply('sa-east-1', null, BRAZIL);
    }
    return rest(call);
  };
}

function defaultRest(call: FakeCall) {
  if (call.url.pathname === '/core/v1/sessions') return { status: 201, body: unverified };
  return { status: 201, body: { authorizationUrl: IDP } };
}

const notProbes = (calls: FakeCall[]) => calls.filter((call) => !call.url.pathname.includes('/probes/'));

async function openSso(query = '', language = 'en') {
  const app = renderApp(loginPath(query), { language });
  await app.user.click(
    screen.getByRole('button', { name: language === 'sv' ? 'Logga in med SSO' : 'Log in with SSO' }),
  );
  await screen.findByRole('heading', { level: 1, name: language === 'sv' ? 'Logga in med SSO' : 'Log in with SSO' });
  return app;
}

async function submitEmail(user: ReturnType<typeof renderApp>['user'], email: string) {
  const field = screen.getByLabelText('Work email');
  await user.clear(field);
  if (email) await user.type(field, email);
  await user.click(screen.getByRole('button', { name: 'Continue' }));
}

describe('the SSO step', () => {
  test('Log in with SSO opens the step with the focus in its email field, asks for the work email, and sends nothing yet', async () => {
    const { calls } = fakeApi(europeSso());
    await openSso();
    expect(
      screen.getByText("Type in your work email. You will continue to your organisation's sign-in page."),
    ).toBeTruthy();
    // A new step to fill in: the focus in its field (Enter goes on with a carried-over email), the step announced.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Work email')));
    await waitFor(() => expect(screen.getByTestId('announcer').textContent).toBe('Log in with SSO'));
    expect(document.title).toBe('Log in with SSO');
    expect(calls).toHaveLength(0);
  });

  test('Log in as someone else returns to an empty login form, its email field focused', async () => {
    const app = renderApp(loginPath());
    await app.user.type(screen.getByLabelText('Email'), 'anna@sso.demo.test');
    await app.user.click(screen.getByRole('button', { name: 'Log in with SSO' }));
    await app.user.click(await screen.findByRole('button', { name: 'Log in as someone else' }));
    await screen.findByRole('heading', { name: 'Log in to the product' });
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Email')));
  });

  test('the email sent to the identity provider is kept for the sign-in: a cancelled sign-on starts again from it', async () => {
    fakeApi(europeSso());
    jest.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
    const { user } = await openSso();
    await submitEmail(user, ' anna@sso.demo.test ');
    await waitFor(() => expect(window.sessionStorage.getItem('signIn.email')).toBe('anna@sso.demo.test'));
  });

  test('the email typed in the login form is carried over', async () => {
    const app = renderApp(loginPath());
    await app.user.type(screen.getByLabelText('Email'), 'anna@sso.demo.test');
    await app.user.click(screen.getByRole('button', { name: 'Log in with SSO' }));
    expect(((await screen.findByLabelText('Work email')) as HTMLInputElement).value).toBe('anna@sso.demo.test');
  });

  test.each([
    ['', 'Type in your email'],
    ['   ', 'Type in your email'],
    ['anna', 'Incorrect email'],
    ['anna@', 'Incorrect email'],
    ['anna@sso', 'Incorrect email'],
  ])('when the email is %j, shows %s and sends nothing', async (email, message) => {
    const { calls } = fakeApi(europeSso());
    const { user } = await openSso();
    await submitEmail(user, email);
    expect(await screen.findByText(message)).toBeTruthy();
    const field = screen.getByLabelText('Work email');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(field.getAttribute('aria-describedby')!)?.textContent).toBe(message);
    expect(calls).toHaveLength(0);
  });

  test('when the domain has SSO, creates the sso session there, asks for the challenge and sends the browser to the identity provider', async () => {
    const { calls } = fakeApi(europeSso());
    const assign = jest.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
    const { user } = await openSso();
    await submitEmail(user, ' Anna@SSO.demo.test ');
    await waitFor(() => expect(assign).toHaveBeenCalledWith(IDP));
    expect(
      calls
        .filter((call) => call.url.pathname.startsWith('/core/v1/probes/'))
        .map((call) => call.url.href)
        .sort(),
    ).toEqual([`${EUROPE}/core/v1/probes/idpDomain/sso.demo.test`, `${BRAZIL}/core/v1/probes/idpDomain/sso.demo.test`]);
    const [create, challenge] = notProbes(calls);
    expect(create.body).toEqual({ grantType: 'sso', email: 'Anna@SSO.demo.test' });
    expect(challenge.url.href).toBe(`${EUROPE}/core/v1/sessions/${unverified.id}/challenges`);
    expect(challenge.body).toMatchObject({
      oidc: { codeChallengeMethod: 'S256', redirectUri: `${window.location.origin}/login/sso` },
    });
    expect(takeSsoAttempt()).toMatchObject({ kind: 'oidc', region: 'eu-north-1', session: { id: unverified.id } });
    expect(window.sessionStorage.getItem('signIn.region')).toBe('eu-north-1');
    expect(screen.getByRole('button', { name: 'Continue' }).getAttribute('aria-busy')).toBe('true');
  });

  test('for the academy, Brazil is not asked', async () => {
    const { calls } = fakeApi(
      europeSso('saml', (call) =>
        call.url.pathname === '/core/v1/sessions'
          ? { status: 201, body: sessionBody({ saml: 'unverified' }) }
          : defaultRest(call),
      ),
    );
    jest.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
    const { user } = await openSso('&clientType=academy');
    await submitEmail(user, 'anna@sso.demo.test');
    await waitFor(() => expect(notProbes(calls)).toHaveLength(2));
    expect(calls.some((call) => call.url.origin === BRAZIL)).toBe(false);
    expect(notProbes(calls)[1].body).toEqual({ saml: { redirectUri: `${window.location.origin}/login/sso` } });
  });

  test('when no region has SSO for the domain, says so on the email field and creates no session', async () => {
    const { calls } = fakeApi(europeSso(null));
    const { user } = await openSso();
    await submitEmail(user, 'anna@demo.test');
    const message = 'Single sign-on is not set up for this email domain. Log in with your password instead.';
    expect(await screen.findByText(message)).toBeTruthy();
    expect(
      document.getElementById(screen.getByLabelText('Work email').getAttribute('aria-describedby')!)?.textContent,
    ).toBe(message);
    expect(notProbes(calls)).toHaveLength(0);
    // Changing the email clears it.
    await user.type(screen.getByLabelText('Work email'), 'x');
    await waitFor(() => expect(screen.queryByText(message)).toBeNull());
  });

  test('when a region still refuses the address at the grant (an older server), says so on the email field', async () => {
    fakeApi(europeSso('oidc', () => apiError(401, 'INVALID_CREDENTIALS')));
    const { user } = await openSso();
    await submitEmail(user, 'nobody@sso.demo.test');
    expect(
      await screen.findByText(/^There is no account for this email that can log in with single sign-on/),
    ).toBeTruthy();
  });

  test.each([
    [
      'INVALID_SSO_CONFIGURATION',
      400,
      'Single sign-on is not set up correctly for your organisation. Contact your administrator.',
    ],
    [
      'INVALID_REDIRECT_URI',
      400,
      'Single sign-on is not set up correctly for your organisation. Contact your administrator.',
    ],
    ['SERVICE_UNAVAILABLE', 503, "Your organisation's sign-in service could not be reached. Please try again later."],
  ])('when the challenge answers %s, shows the alert', async (code, status, text) => {
    fakeApi(
      europeSso('oidc', (call) =>
        call.url.pathname === '/core/v1/sessions' ? { status: 201, body: unverified } : apiError(status, code),
      ),
    );
    const assign = jest.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
    const { user } = await openSso();
    await submitEmail(user, 'anna@sso.demo.test');
    expect((await screen.findByRole('alert')).textContent).toBe(text);
    expect(assign).not.toHaveBeenCalled();
    expect(takeSsoAttempt()).toBeNull();
  });

  test('when a region rate limits the probe, says how long to wait', async () => {
    fakeApi(() =>
      apiError(429, 'TOO_MANY_REQUESTS', { unavailableUntil: new Date(Date.now() + 45_000).toISOString() }),
    );
    const { user } = await openSso();
    await submitEmail(user, 'anna@sso.demo.test');
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /^Too many attempts\. Please wait (45|44) seconds and try again\.$/,
    );
  });

  test('when the API cannot be reached, shows Something went wrong. Please try again.', async () => {
    fakeApi(NETWORK_DOWN);
    const { user } = await openSso();
    await submitEmail(user, 'anna@sso.demo.test');
    expect((await screen.findByRole('alert')).textContent).toBe('Something went wrong. Please try again.');
  });

  test('when both regions have the domain, asks for the region, then signs in there', async () => {
    const { calls } = fakeApi((call) => {
      if (call.url.pathname.includes('/probes/'))
        return call.url.origin === EUROPE
          ? idpProbeReply('eu-north-1', 'oidc')
          : idpProbeReply('sa-east-1', 'saml', BRAZIL);
      return call.url.pathname === '/core/v1/sessions'
        ? { status: 201, body: sessionBody({ saml: 'unverified' }) }
        : { status: 201, body: { authorizationUrl: IDP } };
    });
    const assign = jest.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
    const { user } = await openSso();
    await submitEmail(user, 'ana@escola.test');
    expect(await screen.findByRole('heading', { name: 'Select region' })).toBeTruthy();
    const select = screen.getByRole('combobox', { name: 'Region' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Select region', 'Europe', 'Brazil']);
    expect(notProbes(calls)).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Please select region')).toBeTruthy();
    await user.selectOptions(select, 'sa-east-1');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(IDP));
    expect(notProbes(calls).map((call) => call.url.origin)).toEqual([BRAZIL, BRAZIL]);
    expect(notProbes(calls)[1].body).toEqual({ saml: { redirectUri: `${window.location.origin}/login/sso` } });
  });

  test('the back arrow returns to the login form', async () => {
    const { user } = await openSso();
    await user.click(screen.getByRole('button', { name: 'Back to login' }));
    expect(await screen.findByRole('heading', { name: 'Log in to the product' })).toBeTruthy();
    expect(document.title).toBe('Log in to the product');
  });

  test('in Swedish, the step and its messages are Swedish', async () => {
    fakeApi(europeSso(null));
    const { user } = await openSso('', 'sv');
    expect(document.title).toBe('Logga in med SSO');
    await user.click(screen.getByRole('button', { name: 'Fortsätt' }));
    expect(await screen.findByText('Skriv in din e-postadress')).toBeTruthy();
    await user.type(screen.getByLabelText('E-postadress på jobbet'), 'anna@demo.test');
    await user.click(screen.getByRole('button', { name: 'Fortsätt' }));
    expect(await screen.findByText(/^Enkel inloggning är inte konfigurerad för den här e-postdomänen/)).toBeTruthy();
  });
});
