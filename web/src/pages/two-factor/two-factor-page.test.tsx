import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { browserLocation } from '../../login/browser-location';
import { storeRedirectUrl } from '../../login/sign-in-storage';
import { clockTime } from './two-factor-page';
import { BRAZIL, type Reply, apiError, deferred, fakeApi } from '../../test/fake-api';
import { REDIRECT, renderApp } from '../../test/render-app';
import {
  twoFactorApi as api,
  challenges,
  codeSent,
  givenPendingSession,
  pending,
  sessionPath,
  verifications,
} from '../../test/two-factor-api';

/** The countdown line as read (its wait is a timer element inside it). */
const countdown = () => document.querySelector('.countdown')?.textContent ?? null;
const unavailable = (name: string) => screen.getByRole('button', { name }).getAttribute('aria-disabled') === 'true';

describe('/login/2fa', () => {
  test('without a pending session, goes to /login', async () => {
    storeRedirectUrl(REDIRECT);
    const { calls } = fakeApi(api());
    const { location } = renderApp('/login/2fa');
    expect(await screen.findByRole('heading', { name: 'Log in to the product' })).toBeTruthy();
    expect(location()).toBe('/login');
    expect(calls).toHaveLength(0);
  });

  test('on entry, asks once for an email code with the access token, and says where it went', async () => {
    givenPendingSession();
    const { calls } = fakeApi(api());
    renderApp('/login/2fa');
    expect(await screen.findByText('We sent a 6-digit code to a***@demo.test.')).toBeTruthy();
    expect(challenges(calls)).toHaveLength(1);
    const [call] = challenges(calls);
    expect(call.url.origin).toBe(BRAZIL);
    expect(call.method).toBe('POST');
    expect(call.body).toEqual({ otpEmail: true });
    expect(call.headers.get('authorization')).toBe(`Bearer ${pending.accessToken}`);
    expect(call.headers.get('cosafe-core-api-version')).toBe('1');
  });

  test('the code is asked for in the language the page is showing (Accept-Language), so the email matches the screen', async () => {
    givenPendingSession();
    const { calls } = fakeApi(api());
    renderApp('/login/2fa', { language: 'sv' });
    await waitFor(() => expect(challenges(calls)).toHaveLength(1));
    expect(challenges(calls)[0].headers.get('accept-language')).toBe('sv');
  });

  test('the title is Verify with email and there is a Verify button and a Resend via email button', async () => {
    givenPendingSession();
    fakeApi(api());
    renderApp('/login/2fa');
    expect(await screen.findByRole('heading', { name: 'Verify with email' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Verify' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Resend via email' })).toBeTruthy();
  });

  test('when the SMS factor is not unverified, there is no Resend via SMS button', async () => {
    givenPendingSession({ password: 'verified', otpEmail: 'unverified' });
    fakeApi(api());
    renderApp('/login/2fa');
    await screen.findByText(/We sent a 6-digit code/);
    expect(screen.queryByRole('button', { name: 'Resend via SMS' })).toBeNull();
  });

  test('when the SMS factor is unverified, shows Resend via SMS', async () => {
    givenPendingSession({ password: 'verified', otpEmail: 'unverified', otpSms: 'unverified' });
    fakeApi(api());
    renderApp('/login/2fa');
    expect(await screen.findByRole('button', { name: 'Resend via SMS' })).toBeTruthy();
  });

  test('counts down Another try in {seconds} with its unit once a second, with resend unavailable until it reaches zero', async () => {
    jest.useFakeTimers({ now: new Date('2030-01-01T10:00:00.000Z') });
    givenPendingSession({ password: 'verified', otpEmail: 'unverified', otpSms: 'unverified' });
    fakeApi(api());
    renderApp('/login/2fa', { fakeTimers: true });
    await waitFor(() => expect(countdown()).toBe('Another try in 30 sec'));
    expect([unavailable('Resend via email'), unavailable('Resend via SMS')]).toEqual([true, true]);
    await act(() => jest.advanceTimersByTimeAsync(1000));
    expect(countdown()).toBe('Another try in 29 sec');
    await act(() => jest.advanceTimersByTimeAsync(28_000));
    expect(countdown()).toBe('Another try in 1 sec');
    expect(unavailable('Resend via email')).toBe(true);
    await act(() => jest.advanceTimersByTimeAsync(1000));
    expect(countdown()).toBeNull();
    expect([unavailable('Resend via email'), unavailable('Resend via SMS')]).toEqual([false, false]);
  });

  test('in Swedish, the countdown reads Nytt försök om 30 s', async () => {
    jest.useFakeTimers({ now: new Date('2030-01-01T10:00:00.000Z') });
    givenPendingSession();
    fakeApi(api());
    renderApp('/login/2fa', { fakeTimers: true, language: 'sv' });
    await waitFor(() => expect(countdown()).toBe('Nytt försök om 30 s'));
  });

  test('when the server clock is ahead of the device, the countdown follows the server', async () => {
    jest.useFakeTimers({ now: new Date('2030-01-01T10:00:00.000Z') });
    givenPendingSession();
    // The server's clock reads 10:05:00 and it allows a resend at 10:05:20: 20 seconds, whatever the device clock says.
    fakeApi(
      api(() => ({
        status: 201,
        headers: { date: 'Tue, 01 Jan 2030 10:05:00 GMT' },
        body: {
          sentTo: 'a***@demo.test',
          validUntil: '2030-01-01T10:15:00.000Z',
          resendUnavailableUntil: '2030-01-01T10:05:20.000Z',
        },
      })),
    );
    renderApp('/login/2fa', { fakeTimers: true });
    await waitFor(() => expect(countdown()).toBe('Another try in 20 sec'));
  });

  test('resend is unavailable (still focusable) while a code request is in flight', async () => {
    givenPendingSession();
    const answer = deferred<Reply>();
    fakeApi(api(() => answer.promise));
    renderApp('/login/2fa');
    expect(await screen.findByText('Sending a verification code…')).toBeTruthy();
    expect(unavailable('Resend via email')).toBe(true);
    expect((screen.getByRole('button', { name: 'Resend via email' }) as HTMLButtonElement).disabled).toBe(false);
    await act(async () => answer.resolve(codeSent('a***@demo.test', 0)));
    await waitFor(() => expect(unavailable('Resend via email')).toBe(false));
  });

  test('when the wait is over, Resend via email asks for a new email code', async () => {
    givenPendingSession();
    const { calls } = fakeApi(api(() => codeSent('a***@demo.test', 0)));
    const { user } = renderApp('/login/2fa');
    const resend = await screen.findByRole('button', { name: 'Resend via email' });
    await waitFor(() => expect(unavailable('Resend via email')).toBe(false));
    await user.click(resend);
    await waitFor(() => expect(challenges(calls)).toHaveLength(2));
    expect(challenges(calls)[1].body).toEqual({ otpEmail: true });
  });

  test('after Resend via SMS, the title reads Verify with phone number and Verify answers the SMS challenge', async () => {
    givenPendingSession({ password: 'verified', otpEmail: 'unverified', otpSms: 'unverified' });
    const { calls } = fakeApi(
      api((call) =>
        (call.body as object) && 'otpSms' in (call.body as object)
          ? codeSent('+46 70 *** ** 12', 0)
          : codeSent('a***@demo.test', 0),
      ),
    );
    jest.spyOn(browserLocation, 'replace').mockImplementation(() => undefined);
    const { user } = renderApp('/login/2fa');
    const resendSms = await screen.findByRole('button', { name: 'Resend via SMS' });
    await waitFor(() => expect(unavailable('Resend via SMS')).toBe(false));
    await user.click(resendSms);
    expect(await screen.findByRole('heading', { name: 'Verify with phone number' })).toBeTruthy();
    expect(screen.getByText('We sent a 6-digit code to +46 70 *** ** 12.')).toBeTruthy();
    expect(challenges(calls)[1].body).toEqual({ otpSms: true });
    // The sixth digit submits.
    await user.type(screen.getByLabelText('Verification code'), '654321');
    await waitFor(() => expect(verifications(calls)).toHaveLength(1));
    expect(verifications(calls)[0].body).toEqual({ otpSms: { code: '654321' } });
  });

  test('the code input keeps digits only and at most six of them, and offers one-time-code autofill', async () => {
    givenPendingSession();
    fakeApi(api(undefined, () => apiError(401, 'INVALID_CREDENTIALS')));
    const { user } = renderApp('/login/2fa');
    const input = (await screen.findByLabelText('Verification code')) as HTMLInputElement;
    expect(input.getAttribute('autocomplete')).toBe('one-time-code');
    expect(input.getAttribute('inputmode')).toBe('numeric');
    await user.type(input, '1a2b3-4 5678');
    expect(input.value).toBe('123456');
  });

  test('when a code is filled in with spaces, keeps its six digits', async () => {
    givenPendingSession();
    fakeApi(api(undefined, () => apiError(401, 'INVALID_CREDENTIALS')));
    renderApp('/login/2fa');
    const input = (await screen.findByLabelText('Verification code')) as HTMLInputElement;
    fireEvent.change(input, { target: { value: ' 123 456 ' } });
    await waitFor(() => expect(input.value).toBe('123456'));
  });

  test('when the code is empty, shows Type in verification code and sends nothing', async () => {
    givenPendingSession();
    const { calls } = fakeApi(api());
    const { user } = renderApp('/login/2fa');
    await user.click(await screen.findByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Type in verification code')).toBeTruthy();
    expect(verifications(calls)).toHaveLength(0);
  });

  test('when the code has fewer than 6 digits, shows Verification code must be 6 digits and sends nothing', async () => {
    givenPendingSession();
    const { calls } = fakeApi(api());
    const { user } = renderApp('/login/2fa');
    await user.type(await screen.findByLabelText('Verification code'), '12345');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Verification code must be 6 digits')).toBeTruthy();
    expect(verifications(calls)).toHaveLength(0);
  });

  test.each([
    ['INVALID_CREDENTIALS', apiError(401, 'INVALID_CREDENTIALS'), 'Incorrect verification code'],
    [
      'TOO_MANY_REQUESTS',
      // A wait of minutes; one longer than a day is the lock a password reset ends (two-factor-dead-ends.test.tsx).
      apiError(429, 'TOO_MANY_REQUESTS', { unavailableUntil: new Date(Date.now() + 10 * 60_000).toISOString() }),
      'Too many requests. Please try again later.',
    ],
    [
      'MFA_TOKEN_EXPIRED',
      apiError(401, 'MFA_TOKEN_EXPIRED'),
      'This code has expired. Send a new code, or log in again.',
    ],
    ['INTERNAL_SERVER_ERROR', apiError(500, 'INTERNAL_SERVER_ERROR'), 'Something went wrong. Please try again.'],
  ])('when verification answers %s, shows the matching message on the code', async (_code, reply, message) => {
    givenPendingSession();
    fakeApi(api(undefined, () => reply));
    const leave = jest.spyOn(browserLocation, 'replace').mockImplementation(() => undefined);
    const { user } = renderApp('/login/2fa');
    const input = await screen.findByLabelText('Verification code');
    await user.type(input, '123456');
    expect(await screen.findByText(message)).toBeTruthy();
    expect(document.getElementById(input.getAttribute('aria-describedby')!.split(' ')[0])?.textContent).toBe(message);
    expect(leave).not.toHaveBeenCalled();
  });

  test('after a wrong code, the next code is not judged while typed: "must be 6 digits" shows when the field is left', async () => {
    givenPendingSession();
    fakeApi(api(undefined, () => apiError(401, 'INVALID_CREDENTIALS')));
    const { user } = renderApp('/login/2fa');
    const input = await screen.findByLabelText('Verification code');
    await user.type(input, '123456');
    expect(await screen.findByText('Incorrect verification code')).toBeTruthy();
    await user.clear(input);
    await user.type(input, '1');
    expect(screen.queryByText('Verification code must be 6 digits')).toBeNull();
    expect(screen.queryByText('Incorrect verification code')).toBeNull();
    expect(input.getAttribute('aria-invalid')).toBeNull();
    await user.tab();
    expect(await screen.findByText('Verification code must be 6 digits')).toBeTruthy();
    expect(input.getAttribute('aria-invalid')).toBe('true');
  });

  test('Log in as someone else returns to an empty login form and forgets the pending sign-in and its email', async () => {
    givenPendingSession();
    window.sessionStorage.setItem('signIn.email', 'erik@demo.test');
    fakeApi(api());
    const { user, location } = renderApp('/login/2fa');
    await user.click(await screen.findByRole('button', { name: 'Log in as someone else' }));
    await screen.findByRole('heading', { name: 'Log in to the product' });
    expect(location()).toBe('/login');
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Email')));
    expect(window.sessionStorage.getItem('signIn.pendingSession')).toBeNull();
    expect(window.sessionStorage.getItem('signIn.email')).toBeNull();
    expect(window.sessionStorage.getItem('signIn.redirectUrl')).toBe(REDIRECT);
  });

  test('when the first code request answers 429 with unavailableUntil (a code was just sent), counts down instead of showing an error', async () => {
    jest.useFakeTimers({ now: new Date('2030-01-01T10:00:00.000Z') });
    givenPendingSession();
    fakeApi(api(() => apiError(429, 'TOO_MANY_REQUESTS', { unavailableUntil: '2030-01-01T10:00:45.000Z' })));
    renderApp('/login/2fa', { fakeTimers: true });
    await waitFor(() => expect(countdown()).toBe('Another try in 45 sec'));
    expect(
      screen.getByText('A code was sent to you a moment ago and is still valid. Use the newest code you received.'),
    ).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(unavailable('Resend via email')).toBe(true);
  });

  test('when the code request fails otherwise, shows Something went wrong. Please try again.', async () => {
    givenPendingSession();
    fakeApi(api(() => apiError(400, 'MFA_REQUIRED_BUT_NOT_ENABLED')));
    renderApp('/login/2fa');
    expect((await screen.findByRole('alert')).textContent).toBe('Something went wrong. Please try again.');
  });

  test('when the code is right, goes to the redirect URL with the verified session and clears the stored values', async () => {
    givenPendingSession();
    const { calls } = fakeApi(api());
    const leave = jest.spyOn(browserLocation, 'replace').mockImplementation(() => undefined);
    const { user } = renderApp('/login/2fa');
    await user.type(await screen.findByLabelText('Verification code'), '123456');
    await waitFor(() => expect(leave).toHaveBeenCalledTimes(1));
    const [verify] = verifications(calls);
    expect(verify.url.href).toBe(`${BRAZIL}${sessionPath}`);
    expect(verify.body).toEqual({ otpEmail: { code: '123456' } });
    expect(verify.headers.get('authorization')).toBe(`Bearer ${pending.accessToken}`);
    const url = new URL(leave.mock.calls[0][0]);
    expect(url.origin + url.pathname).toBe(REDIRECT);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      refreshToken: 'refresh-new',
      sessionId: pending.id,
      region: 'sa-east-1',
    });
    expect(window.sessionStorage.length).toBe(0);
  });

  test('when the stored redirect is gone by the time the code is right, goes to /invalid-redirect', async () => {
    givenPendingSession();
    fakeApi(api());
    const leave = jest.spyOn(browserLocation, 'replace').mockImplementation(() => undefined);
    const { user, location } = renderApp('/login/2fa');
    window.sessionStorage.removeItem('signIn.redirectUrl');
    await user.type(await screen.findByLabelText('Verification code'), '123456');
    expect(await screen.findByRole('heading', { name: /Login redirect failed/ })).toBeTruthy();
    expect(location()).toBe('/invalid-redirect');
    expect(leave).not.toHaveBeenCalled();
  });
});

describe('the time of day a new code can be asked for', () => {
  const at = new Date(2026, 10, 29, 14, 5).getTime();
  test.each([
    ['en', ['en-GB', 'en'], '14:05'],
    ['en', ['en-US'], '2:05 PM'],
    ['sv', ['en-GB', 'sv-SE'], '14:05'],
    ['en', ['sv-SE'], '2:05 PM'],
  ])('in %s with the browser asking for %j, reads %s', (language, preferred, expected) => {
    expect(clockTime(at, language, preferred).replace(/\s/g, ' ')).toBe(expected);
  });
});
