import { screen, waitFor } from '@testing-library/react';
import { createHash } from 'node:crypto';
import { BRAZIL, EUROPE, NETWORK_DOWN, type Route, apiError, deferred, fakeApi } from '../../test/fake-api';
import { REDIRECT, loginPath, renderApp } from '../../test/render-app';

const accepted: Route = () => ({ status: 202 });
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function submit(user: ReturnType<typeof renderApp>['user'], email: string) {
  const input = await screen.findByLabelText('Email');
  if (email) await user.type(input, email);
  await user.click(screen.getByRole('button', { name: 'Send reset link' }));
}

describe('/forgot-password', () => {
  test('keeps the header with the back link to /login, and below it asks for the email', async () => {
    renderApp('/forgot-password');
    expect(await screen.findByRole('heading', { level: 1, name: 'Forgot your password?' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to login' }).getAttribute('href')).toBe('/login');
    expect(
      screen.getByText(
        'Type in the email address of your account and we will send you a link to choose a new password.',
      ),
    ).toBeTruthy();
    expect((screen.getByLabelText('Email') as HTMLInputElement).getAttribute('autocomplete')).toBe('username');
    expect(document.title).toBe('Forgot your password?');
  });

  test('asks every region in the language the page is showing (Accept-Language), so the reset email matches the screen', async () => {
    const { calls } = fakeApi(accepted);
    const { user } = renderApp('/forgot-password', { language: 'fi' });
    const input = await screen.findByLabelText('Sähköposti');
    await user.type(input, 'anna@demo.test{Enter}');
    await waitFor(() => expect(calls).toHaveLength(2));
    for (const call of calls) expect(call.headers.get('accept-language')).toBe('fi');
  });

  test('the back link returns to the login form of the stored redirect', async () => {
    window.sessionStorage.setItem('signIn.redirectUrl', REDIRECT);
    const { user } = renderApp('/forgot-password');
    await user.click(await screen.findByRole('link', { name: 'Back to login' }));
    expect(await screen.findByRole('heading', { name: 'Log in to the product' })).toBeTruthy();
  });

  test('arriving from the login page, the email field has the focus and the page is announced; the confirmation then takes the focus', async () => {
    window.sessionStorage.setItem('signIn.redirectUrl', REDIRECT);
    fakeApi(accepted);
    const { user } = renderApp(loginPath());
    await user.click(screen.getByRole('link', { name: 'Forgot your password?' }));
    const email = await screen.findByLabelText('Email');
    await waitFor(() => expect(document.activeElement).toBe(email));
    await waitFor(() => expect(screen.getByTestId('announcer').textContent).toBe('Forgot your password?'));
    await user.type(email, 'anna@demo.test{Enter}');
    const sent = await screen.findByRole('heading', { level: 2, name: 'Check your email' });
    await waitFor(() => expect(document.activeElement).toBe(sent));
  });

  test('the login page links here', async () => {
    const { user } = renderApp(loginPath());
    await user.click(screen.getByRole('link', { name: 'Forgot your password?' }));
    expect(await screen.findByRole('button', { name: 'Send reset link' })).toBeTruthy();
  });

  test.each([
    ['', 'Type in your email'],
    ['   ', 'Type in your email'],
    ['anna@', 'Incorrect email'],
    ['anna demo.test', 'Incorrect email'],
  ])('when the email is %j, shows %s, focuses the field and sends nothing', async (email, message) => {
    const { calls } = fakeApi(accepted);
    const { user } = renderApp('/forgot-password');
    await submit(user, email);
    expect(await screen.findByText(message)).toBeTruthy();
    const input = screen.getByLabelText('Email');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe('email-error');
    await waitFor(() => expect(document.activeElement).toBe(input));
    expect(calls).toHaveLength(0);
  });

  test('sends { emailHash } to every region and shows the confirmation with the email', async () => {
    const { calls } = fakeApi(accepted);
    const { user } = renderApp('/forgot-password');
    await submit(user, 'Anna@Demo.test');
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeTruthy();
    expect(
      screen.getByText(
        'If there is an account for Anna@Demo.test, we have sent it a link to choose a new password. The link is valid for 30 minutes.',
      ),
    ).toBeTruthy();
    expect(screen.queryByLabelText('Email')).toBeNull();
    expect(calls.map((call) => `${call.method} ${call.url.origin}${call.url.pathname}`).sort()).toEqual([
      `POST ${EUROPE}/core/v1/users/password-reset`,
      `POST ${BRAZIL}/core/v1/users/password-reset`,
    ]);
    for (const call of calls) expect(call.body).toEqual({ emailHash: sha256('anna@demo.test') });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Check your email' })));
  });

  test('the confirmation is the same whatever the email: the server answers 202 either way', async () => {
    fakeApi(accepted);
    const { user } = renderApp('/forgot-password');
    await submit(user, 'nobody@nowhere.test');
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeTruthy();
  });

  test('for the academy (client type stored by /login), Brazil is not asked', async () => {
    const { calls } = fakeApi(accepted);
    const { user } = renderApp(loginPath('&clientType=academy'));
    await user.click(screen.getByRole('link', { name: 'Forgot your password?' }));
    await submit(user, 'anna@demo.test');
    await screen.findByRole('heading', { name: 'Check your email' });
    expect(calls.map((call) => call.url.origin)).toEqual([EUROPE]);
  });

  test('while the request is out, the button is busy', async () => {
    const answer = deferred<{ status: number }>();
    fakeApi(() => answer.promise);
    const { user } = renderApp('/forgot-password');
    await submit(user, 'anna@demo.test');
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Send reset link' }).getAttribute('aria-busy')).toBe('true'),
    );
    answer.resolve({ status: 202 });
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeTruthy();
  });

  test('when a region answers 429, says how long to wait and keeps the form', async () => {
    fakeApi(({ url }) =>
      url.origin === EUROPE
        ? apiError(429, 'TOO_MANY_REQUESTS', { unavailableUntil: new Date(Date.now() + 45_000).toISOString() })
        : { status: 202 },
    );
    const { user } = renderApp('/forgot-password');
    await submit(user, 'anna@demo.test');
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /^Too many attempts\. Please wait 4[45] seconds and try again\.$/,
    );
    expect(screen.getByLabelText('Email')).toBeTruthy();
  });

  test('when a region cannot be reached, asks to try again instead of confirming', async () => {
    fakeApi(NETWORK_DOWN);
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderApp('/forgot-password');
    await submit(user, 'anna@demo.test');
    expect((await screen.findByRole('alert')).textContent).toBe('Something went wrong. Please try again.');
    expect(screen.queryByRole('heading', { name: 'Check your email' })).toBeNull();
  });

  test('in Swedish, the form and the validation read in Swedish', async () => {
    fakeApi(accepted);
    const { user } = renderApp('/forgot-password', { language: 'sv' });
    expect(await screen.findByRole('heading', { name: 'Glömt lösenordet?' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Skicka återställningslänk' }));
    expect(await screen.findByText('Skriv in din e-postadress')).toBeTruthy();
  });
});
