import { screen, waitFor } from '@testing-library/react';
import { browserLocation } from '../../login/browser-location';
import { readPendingSession, storeRedirectUrl } from '../../login/sign-in-storage';
import { type SsoAttempt, storeSsoAttempt } from '../../login/sso-storage';
import { BRAZIL, EUROPE, type Route, apiError, fakeApi, sessionBody } from '../../test/fake-api';
import { REDIRECT, renderApp } from '../../test/render-app';

const unverified = sessionBody({ oidc: 'unverified' });
const verified = {
  ...sessionBody({ oidc: 'verified' }),
  accessToken: 'access-verified',
  refreshToken: 'refresh-verified',
};
const VERIFIER = 'A'.repeat(43) + '-._~' + 'z'.repeat(17);
const oidcAttempt: SsoAttempt = {
  kind: 'oidc',
  region: 'eu-north-1',
  baseUrl: EUROPE,
  session: { id: unverified.id, accessToken: unverified.accessToken },
  codeVerifier: VERIFIER,
  state: 'state-of-this-tab',
};
const samlAttempt: SsoAttempt = {
  kind: 'saml',
  region: 'sa-east-1',
  baseUrl: BRAZIL,
  session: { id: unverified.id, accessToken: unverified.accessToken },
};

function given(attempt: SsoAttempt | null, redirect: string | null = REDIRECT) {
  if (redirect) storeRedirectUrl(redirect);
  if (attempt) storeSsoAttempt(attempt);
}

function api(verify: Route = () => ({ status: 200, body: verified })) {
  return fakeApi(verify);
}

const stubLeave = () => jest.spyOn(browserLocation, 'replace').mockImplementation(() => undefined);
const returnTo = (query: string, language = 'en') => renderApp(`/login/sso?${query}`, { language });

async function expectFailure(text: string) {
  expect(await screen.findByRole('heading', { name: 'Single sign-on did not work' })).toBeTruthy();
  expect(screen.getByRole('alert').textContent).toBe(text);
  expect(screen.getByRole('link', { name: 'Log in again' }).getAttribute('href')).toBe('/login');
  await waitFor(() =>
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Single sign-on did not work' })),
  );
  expect(document.title).toBe('Single sign-on did not work');
}

describe('/login/sso', () => {
  test('OIDC: with the state of this tab, answers the challenge once and goes to the platform with refreshToken, sessionId and region', async () => {
    given(oidcAttempt);
    const { calls } = api();
    const leave = stubLeave();
    const { location } = returnTo('code=the-code&state=state-of-this-tab&iss=http%3A%2F%2F127.0.0.1%3A4300');
    expect(await screen.findByRole('heading', { name: 'Completing your sign-in' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Checking the answer from your organisation…');
    await waitFor(() => expect(leave).toHaveBeenCalledTimes(1));
    const url = new URL(leave.mock.calls[0][0]);
    expect(url.origin + url.pathname).toBe(REDIRECT);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      refreshToken: 'refresh-verified',
      sessionId: verified.id,
      region: 'eu-north-1',
    });
    // StrictMode runs the effect twice: the code is still sent once.
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      method: 'PATCH',
      body: { oidc: { authorizationCode: 'the-code', codeVerifier: VERIFIER, state: 'state-of-this-tab' } },
    });
    expect(calls[0].url.href).toBe(`${EUROPE}/core/v1/sessions/${unverified.id}`);
    expect(calls[0].headers.get('authorization')).toBe(`Bearer ${unverified.accessToken}`);
    // The one-time code is out of the address bar (the router applies it as a transition), and the storage is cleared.
    await waitFor(() => expect(location()).toBe('/login/sso'));
    expect(window.sessionStorage.length).toBe(0);
  });

  test('OIDC: with another state, sends nothing and says the answer does not match', async () => {
    given(oidcAttempt);
    const { calls } = api();
    const leave = stubLeave();
    returnTo('code=the-code&state=forged');
    await expectFailure(
      "The answer from your organisation's sign-in does not match the sign-in started in this browser tab. Please log in again.",
    );
    expect(calls).toHaveLength(0);
    expect(leave).not.toHaveBeenCalled();
  });

  test('SAML: with this session id and the one-time code, completes the sign-in in the session’s region', async () => {
    given(samlAttempt);
    const { calls } = api();
    const leave = stubLeave();
    returnTo(`sessionId=${unverified.id}&code=one-time-code`);
    await waitFor(() => expect(leave).toHaveBeenCalledTimes(1));
    expect(calls[0].url.href).toBe(`${BRAZIL}/core/v1/sessions/${unverified.id}`);
    expect(calls[0].body).toEqual({ saml: { code: 'one-time-code' } });
    expect(new URL(leave.mock.calls[0][0]).searchParams.get('region')).toBe('sa-east-1');
  });

  test.each([
    [
      'saml_validation_failed',
      "The answer from your organisation's sign-in could not be validated. Please log in again, and contact your administrator if it happens again.",
    ],
    ['user_not_found', 'There is no account for the user you signed in as. Contact your administrator.'],
    [
      'unauthorized_organization',
      'There is no account in this organisation for the user you signed in as. Check that you signed in with your work account, or contact your administrator.',
    ],
    ['access_denied', 'The sign-in at your organisation was cancelled or refused. Please log in again.'],
  ])('error=%s shows its message and sends nothing', async (error, text) => {
    given(samlAttempt);
    const { calls } = api();
    returnTo(`error=${error}`);
    await expectFailure(text);
    expect(calls).toHaveLength(0);
  });

  test.each([
    [
      'INVALID_SSO_CONFIGURATION',
      400,
      'Single sign-on is not set up correctly for your organisation. Contact your administrator.',
    ],
    ['SSO_CHALLENGE_EXPIRED', 400, 'The sign-in took too long and has expired. Please log in again.'],
    [
      'AUTHORIZATION_CODE_NOT_FOUND',
      400,
      'This sign-in has already been used or was replaced by a newer one. Please log in again.',
    ],
    ['INVALID_SSO_AUTHORIZATION_CODE', 401, "Your organisation's sign-in could not be confirmed. Please log in again."],
    [
      'INVALID_SSO_ID_TOKEN',
      401,
      "The answer from your organisation's sign-in could not be verified. Please log in again, and contact your administrator if it happens again.",
    ],
    ['SKOLON_USER_NOT_TEACHER', 403, 'Only teachers can log in with Skolon.'],
    [
      'INVALID_CREDENTIALS',
      401,
      'There is no account in this organisation for the user you signed in as. Check that you signed in with your work account, or contact your administrator.',
    ],
    ['EXPIRED_ACCESS_TOKEN', 401, 'The sign-in took too long and has expired. Please log in again.'],
    ['SERVICE_UNAVAILABLE', 503, "Your organisation's sign-in service could not be reached. Please try again later."],
    ['INTERNAL_SERVER_ERROR', 500, 'Something went wrong. Please try again.'],
  ])('when the region answers %s, shows its message', async (code, status, text) => {
    given(oidcAttempt);
    api(() => apiError(status, code));
    const leave = stubLeave();
    returnTo('code=c&state=state-of-this-tab');
    await expectFailure(text);
    expect(leave).not.toHaveBeenCalled();
  });

  test('without an attempt in this tab (another tab, a reload), says none was started', async () => {
    given(null);
    const { calls } = api();
    returnTo('code=c&state=s');
    await expectFailure(
      'No single sign-on was started in this browser tab, or it has already been completed. Please log in again.',
    );
    expect(calls).toHaveLength(0);
  });

  test('Log in again goes back to /login with the stored redirect URL', async () => {
    given(null);
    const { user, location } = returnTo('code=c&state=s');
    await screen.findByRole('heading', { name: 'Single sign-on did not work' });
    await user.click(screen.getByRole('link', { name: 'Log in again' }));
    expect(await screen.findByRole('heading', { name: 'Log in to the product' })).toBeTruthy();
    expect(location()).toBe('/login');
  });

  test('a verified session that still needs a one-time code continues to /login/2fa', async () => {
    given(oidcAttempt);
    const session = sessionBody({ oidc: 'verified', otpEmail: 'unverified' }, unverified.id);
    api((call) =>
      call.method === 'PATCH'
        ? { status: 200, body: session }
        : {
            status: 201,
            body: {
              sentTo: 's***@sso.demo.test',
              validUntil: new Date(Date.now() + 600_000).toISOString(),
              resendUnavailableUntil: new Date(Date.now() + 30_000).toISOString(),
            },
          },
    );
    const { location } = returnTo('code=c&state=state-of-this-tab');
    expect(await screen.findByRole('heading', { name: 'Verify with email' })).toBeTruthy();
    expect(location()).toBe('/login/2fa');
    expect(readPendingSession()).toEqual({ session, region: 'eu-north-1', baseUrl: EUROPE });
  });

  test('a stored redirect URL that is not allowed goes to /invalid-redirect', async () => {
    given(oidcAttempt, 'https://evil.example/login');
    api();
    const leave = stubLeave();
    const { location } = returnTo('code=c&state=state-of-this-tab');
    expect(
      await screen.findByRole('heading', { name: 'Login redirect failed. Please try logging in again' }),
    ).toBeTruthy();
    expect(location()).toBe('/invalid-redirect');
    expect(leave).not.toHaveBeenCalled();
  });

  test('in Swedish, the messages are Swedish', async () => {
    given(samlAttempt);
    api();
    returnTo('error=user_not_found', 'sv');
    expect(await screen.findByRole('heading', { name: 'Enkel inloggning fungerade inte' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(
      'Det finns inget konto för användaren du loggade in som. Kontakta din administratör.',
    );
    expect(screen.getByRole('link', { name: 'Logga in igen' })).toBeTruthy();
  });
});
