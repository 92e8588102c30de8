import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { browserLocation } from '../../login/browser-location';
import { readPendingSession, storeChallenge } from '../../login/sign-in-storage';
import { apiError, fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';
import {
  twoFactorApi as api,
  challenges,
  codeSent,
  givenPendingSession,
  verifications,
} from '../../test/two-factor-api';

const countdown = () => document.querySelector('.countdown')?.textContent ?? null;
const unavailable = (name: string) => screen.getByRole('button', { name }).getAttribute('aria-disabled') === 'true';
const announced = () => screen.getByTestId('announcer').textContent;

/** The code this tab asked for `secondsAgo` seconds ago (valid 10 minutes, another allowed after 30 s). */
function givenCodeAsked(secondsAgo: number, extra: { wrongTries?: number; channel?: 'email' | 'sms' } = {}) {
  const sentAt = Date.now() - secondsAgo * 1000;
  storeChallenge({
    channel: extra.channel ?? 'email',
    sentTo: 'a***@demo.test',
    validUntil: sentAt + 600_000,
    resendAt: sentAt + 30_000,
    wrongTries: extra.wrongTries ?? 0,
  });
}

describe('/login/2fa after a reload, Back or the logo', () => {
  test('within the resend wait, shows We sent a 6-digit code to … with the running countdown and asks the server nothing', async () => {
    jest.useFakeTimers({ now: new Date('2030-01-01T10:00:00.000Z') });
    givenPendingSession();
    givenCodeAsked(10);
    const { calls } = fakeApi(api());
    renderApp('/login/2fa', { fakeTimers: true });
    expect(await screen.findByText('We sent a 6-digit code to a***@demo.test.')).toBeTruthy();
    expect(countdown()).toBe('Another try in 20 sec');
    await act(() => jest.advanceTimersByTimeAsync(1000));
    expect(countdown()).toBe('Another try in 19 sec');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(calls).toHaveLength(0);
  });

  test('after the wait, while the code is still valid, asks nothing either (a new code would replace the one being read); Resend is available', async () => {
    givenPendingSession();
    givenCodeAsked(120);
    const { calls } = fakeApi(api());
    renderApp('/login/2fa');
    expect(await screen.findByText('We sent a 6-digit code to a***@demo.test.')).toBeTruthy();
    expect(unavailable('Resend via email')).toBe(false);
    expect(calls).toHaveLength(0);
  });

  test('when the code it asked for has expired, asks for a new one', async () => {
    givenPendingSession();
    givenCodeAsked(601);
    const { calls } = fakeApi(api(() => codeSent('b***@demo.test')));
    renderApp('/login/2fa');
    expect(await screen.findByText('We sent a 6-digit code to b***@demo.test.')).toBeTruthy();
    expect(challenges(calls)).toHaveLength(1);
  });

  test('when a Resend meets 429 with unavailableUntil, counts down and keeps the code it sent, without an error', async () => {
    jest.useFakeTimers({ now: new Date('2030-01-01T10:00:00.000Z') });
    givenPendingSession();
    givenCodeAsked(40);
    fakeApi(api(() => apiError(429, 'TOO_MANY_REQUESTS', { unavailableUntil: '2030-01-01T10:53:00.000Z' })));
    const { user } = renderApp('/login/2fa', { fakeTimers: true });
    await user.click(await screen.findByRole('button', { name: 'Resend via email' }));
    await waitFor(() => expect(countdown()).toBe('Another try in 53 min'));
    expect(screen.getByText('We sent a 6-digit code to a***@demo.test.')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('/login/2fa when the sign-in can no longer finish', () => {
  test('when the pending session has expired, says so without asking the server, and Log in again returns to /login with the email kept', async () => {
    givenPendingSession(undefined, Date.now() - 1000);
    const { calls } = fakeApi(api());
    const { user, location } = renderApp('/login/2fa');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(
      /^This sign-in has expired: the code must be entered within 15 minutes of logging in\./,
    );
    expect(document.activeElement).toBe(alert);
    expect(screen.queryByLabelText('Verification code')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Log in again' }));
    expect(await screen.findByRole('heading', { name: 'Log in to the product' })).toBeTruthy();
    expect(location()).toBe('/login');
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('anna@demo.test');
    expect(document.activeElement).toBe(screen.getByLabelText('Password'));
    expect(readPendingSession()).toBeNull();
    expect(calls).toHaveLength(0);
  });

  test('when the pending session expires while the page is open, the page says so as it happens', async () => {
    jest.useFakeTimers({ now: new Date('2030-01-01T10:00:00.000Z') });
    givenPendingSession(undefined, Date.now() + 5000);
    fakeApi(api());
    renderApp('/login/2fa', { fakeTimers: true });
    expect(await screen.findByLabelText('Verification code')).toBeTruthy();
    await act(() => jest.advanceTimersByTimeAsync(5000));
    expect(screen.getByRole('button', { name: 'Log in again' })).toBeTruthy();
    expect(screen.queryByLabelText('Verification code')).toBeNull();
  });

  test.each(['EXPIRED_ACCESS_TOKEN', 'INVALID_SESSION', 'UNAUTHORIZED'])(
    'when verification answers %s, says the sign-in has expired and offers Log in again',
    async (code) => {
      givenPendingSession();
      fakeApi(api(undefined, () => apiError(401, code)));
      const { user } = renderApp('/login/2fa');
      await user.type(await screen.findByLabelText('Verification code'), '123456');
      expect((await screen.findByRole('alert')).textContent).toMatch(/^This sign-in has expired/);
      expect(screen.getByRole('button', { name: 'Log in again' })).toBeTruthy();
    },
  );

  test('when asking for a code answers INVALID_SESSION, says the sign-in has expired', async () => {
    givenPendingSession();
    fakeApi(api(() => apiError(401, 'INVALID_SESSION')));
    renderApp('/login/2fa');
    expect((await screen.findByRole('alert')).textContent).toMatch(/^This sign-in has expired/);
  });

  test('after five wrong codes, says the code no longer works: Verify is unavailable, a new code makes it available again', async () => {
    givenPendingSession();
    givenCodeAsked(40, { wrongTries: 4 });
    const { calls } = fakeApi(
      api(
        () => codeSent('a***@demo.test', 30),
        () => apiError(401, 'INVALID_CREDENTIALS'),
      ),
    );
    const { user } = renderApp('/login/2fa');
    await user.type(await screen.findByLabelText('Verification code'), '111111');
    expect(
      await screen.findByText(
        'This code no longer works after too many wrong tries. Send a new code, or log in again.',
      ),
    ).toBeTruthy();
    expect(unavailable('Verify')).toBe(true);
    expect(screen.getByRole('button', { name: 'Log in again' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(verifications(calls)).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Resend via email' }));
    await waitFor(() => expect(unavailable('Verify')).toBe(false));
    expect(screen.queryByText(/no longer works/)).toBeNull();
  });
});

describe('/login/2fa when the second factor is locked', () => {
  test('after 30 wrong codes the lock lasts until a password reset: says so and links to it, with no year-long wait', async () => {
    jest.useFakeTimers({ now: new Date('2030-01-01T10:00:00.000Z') });
    givenPendingSession();
    givenCodeAsked(40);
    fakeApi(
      api(
        () => codeSent('a***@demo.test', 30),
        () => apiError(429, 'TOO_MANY_REQUESTS', { unavailableUntil: '2031-01-01T10:00:00.000Z' }),
      ),
    );
    const { user } = renderApp('/login/2fa', { fakeTimers: true });
    await user.type(await screen.findByLabelText('Verification code'), '111111');
    expect(
      await screen.findByText(
        'Too many wrong codes: codes can no longer finish a sign-in to this account. Reset your password to unlock it.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Reset your password' }).getAttribute('href')).toBe('/forgot-password');
    expect(countdown() ?? '').not.toMatch(/\d/);
    expect(unavailable('Verify')).toBe(true);
  });

  test('a short wait after a wrong code is still a countdown, without the reset', async () => {
    jest.useFakeTimers({ now: new Date('2030-01-01T10:00:00.000Z') });
    givenPendingSession();
    givenCodeAsked(40);
    fakeApi(
      api(
        () => codeSent('a***@demo.test', 30),
        () => apiError(429, 'TOO_MANY_REQUESTS', { unavailableUntil: '2030-01-01T10:02:00.000Z' }),
      ),
    );
    const { user } = renderApp('/login/2fa', { fakeTimers: true });
    await user.type(await screen.findByLabelText('Verification code'), '111111');
    await waitFor(() => expect(countdown()).toBe('Another try in 2 min'));
    expect(screen.queryByRole('link', { name: 'Reset your password' })).toBeNull();
  });
});

describe('/login/2fa, entering the code', () => {
  test('on arrival, the code field has the focus', async () => {
    givenPendingSession();
    fakeApi(api());
    renderApp('/login/2fa');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Verification code')));
  });

  test('a pasted message fills in its code, the last run of six digits, and submits it once', async () => {
    givenPendingSession();
    jest.spyOn(browserLocation, 'replace').mockImplementation(() => undefined);
    const { calls } = fakeApi(api());
    renderApp('/login/2fa');
    const input = (await screen.findByLabelText('Verification code')) as HTMLInputElement;
    fireEvent.paste(input, { clipboardData: { getData: () => 'Your code, valid 10 minutes: 518540' } });
    expect(input.value).toBe('518540');
    await waitFor(() => expect(verifications(calls)).toHaveLength(1));
    expect(verifications(calls)[0].body).toEqual({ otpEmail: { code: '518540' } });
  });

  test('an SMS filled in with its origin-bound last line gives the code', async () => {
    givenPendingSession();
    fakeApi(api(undefined, () => apiError(401, 'INVALID_CREDENTIALS')));
    renderApp('/login/2fa');
    const input = (await screen.findByLabelText('Verification code')) as HTMLInputElement;
    fireEvent.change(input, {
      target: { value: 'Your verification code is 518540.\n\n@login.example-product.com #518540' },
    });
    await waitFor(() => expect(input.value).toBe('518540'));
  });

  test('Resend announces A new code was sent to …, and the focus stays on the button while it waits', async () => {
    givenPendingSession();
    givenCodeAsked(40);
    fakeApi(api(() => codeSent('a***@demo.test', 30)));
    const { user } = renderApp('/login/2fa');
    const resend = await screen.findByRole('button', { name: 'Resend via email' });
    await user.click(resend);
    await waitFor(() => expect(announced()).toBe('A new code was sent to a***@demo.test.'));
    expect(unavailable('Resend via email')).toBe(true);
    expect(document.activeElement).toBe(resend);
  });
});
