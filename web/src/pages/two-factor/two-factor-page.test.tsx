import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { browserLocation } from '../../login/browser-location';
import { storePendingSession, storeRedirectUrl, storeRegion } from '../../login/sign-in-storage';
import { BRAZIL, type FakeCall, type Reply, type Route, apiError, deferred, fakeApi, sessionBody } from '../../test/fake-api';
import { REDIRECT, renderApp } from '../../test/render-app';

const pending = sessionBody({ password: 'verified', otpEmail: 'unverified' });
const challengePath = `/core/v1/sessions/${pending.id}/challenges`;
const sessionPath = `/core/v1/sessions/${pending.id}`;

function codeSent(sentTo = 'a***@demo.test', waitSeconds = 30): Reply {
  return {
    status: 201,
    body: {
      sentTo,
      validUntil: new Date(Date.now() + 600_000).toISOString(),
      resendUnavailableUntil: new Date(Date.now() + waitSeconds * 1000).toISOString(),
    },
  };
}

const verified = sessionBody({ password: 'verified', otpEmail: 'verified' }, pending.id);
const rotated = { ...verified, accessToken: 'access-new', refreshToken: 'refresh-new' };

/** Challenges answer `challenge`, verification answers `verify`. */
function api(challenge: Route = () => codeSent(), verify: Route = () => ({ status: 200, body: rotated })): Route {
  return (call) => (call.url.pathname === challengePath ? challenge(call) : verify(call));
}

function givenPendingSession(factors: Record<string, string> = pending.factors) {
  storeRedirectUrl(REDIRECT);
  storeRegion('sa-east-1');
  storePendingSession({ session: { ...pending, factors } as never, region: 'sa-east-1', baseUrl: BRAZIL });
}

const challenges = (calls: FakeCall[]) => calls.filter((call) => call.url.pathname === challengePath);
const verifications = (calls: FakeCall[]) => calls.filter((call) => call.method === 'PATCH');

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

  test('counts down Another try in {seconds} once a second, with resend disabled until it reaches zero', async () => {
    jest.useFakeTimers({ now: new Date('2030-01-01T10:00:00.000Z') });
    givenPendingSession({ password: 'verified', otpEmail: 'unverified', otpSms: 'unverified' });
    fakeApi(api());
    renderApp('/login/2fa', { fakeTimers: true });
    expect(await screen.findByText('Another try in 30')).toBeTruthy();
    const resendEmail = screen.getByRole('button', { name: 'Resend via email' }) as HTMLButtonElement;
    const resendSms = screen.getByRole('button', { name: 'Resend via SMS' }) as HTMLButtonElement;
    expect([resendEmail.disabled, resendSms.disabled]).toEqual([true, true]);
    await act(() => jest.advanceTimersByTimeAsync(1000));
    expect(screen.getByText('Another try in 29')).toBeTruthy();
    await act(() => jest.advanceTimersByTimeAsync(28_000));
    expect(screen.getByText('Another try in 1')).toBeTruthy();
    expect(resendEmail.disabled).toBe(true);
    await act(() => jest.advanceTimersByTimeAsync(1000));
    expect(screen.queryByText(/Another try in/)).toBeNull();
    expect([resendEmail.disabled, resendSms.disabled]).toEqual([false, false]);
  });

  test('when the server clock is ahead of the device, the countdown follows the server', async () => {
    jest.useFakeTimers({ now: new Date('2030-01-01T10:00:00.000Z') });
    givenPendingSession();
    // The server's clock reads 10:05:00 and it allows a resend at 10:05:20: 20 seconds, whatever the device clock says.
    fakeApi(api(() => ({
      status: 201,
      headers: { date: 'Tue, 01 Jan 2030 10:05:00 GMT' },
      body: { sentTo: 'a***@demo.test', validUntil: '2030-01-01T10:15:00.000Z', resendUnavailableUntil: '2030-01-01T10:05:20.000Z' },
    })));
    renderApp('/login/2fa', { fakeTimers: true });
    expect(await screen.findByText('Another try in 20')).toBeTruthy();
  });

  test('resend is disabled while a code request is in flight', async () => {
    givenPendingSession();
    const answer = deferred<Reply>();
    fakeApi(api(() => answer.promise));
    renderApp('/login/2fa');
    expect(await screen.findByText('Sending a verification code…')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Resend via email' }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => answer.resolve(codeSent('a***@demo.test', 0)));
    await waitFor(() => expect((screen.getByRole('button', { name: 'Resend via email' }) as HTMLButtonElement).disabled).toBe(false));
  });

  test('when the wait is over, Resend via email asks for a new email code', async () => {
    givenPendingSession();
    const { calls } = fakeApi(api(() => codeSent('a***@demo.test', 0)));
    const { user } = renderApp('/login/2fa');
    const resend = await screen.findByRole('button', { name: 'Resend via email' });
    await waitFor(() => expect((resend as HTMLButtonElement).disabled).toBe(false));
    await user.click(resend);
    await waitFor(() => expect(challenges(calls)).toHaveLength(2));
    expect(challenges(calls)[1].body).toEqual({ otpEmail: true });
  });

  test('after Resend via SMS, the title reads Verify with phone number and Verify answers the SMS challenge', async () => {
    givenPendingSession({ password: 'verified', otpEmail: 'unverified', otpSms: 'unverified' });
    const { calls } = fakeApi(api((call) => ((call.body as object) && 'otpSms' in (call.body as object) ? codeSent('+46 70 *** ** 12', 0) : codeSent('a***@demo.test', 0))));
    jest.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
    const { user } = renderApp('/login/2fa');
    const resendSms = await screen.findByRole('button', { name: 'Resend via SMS' });
    await waitFor(() => expect((resendSms as HTMLButtonElement).disabled).toBe(false));
    await user.click(resendSms);
    expect(await screen.findByRole('heading', { name: 'Verify with phone number' })).toBeTruthy();
    expect(screen.getByText('We sent a 6-digit code to +46 70 *** ** 12.')).toBeTruthy();
    expect(challenges(calls)[1].body).toEqual({ otpSms: true });
    await user.type(screen.getByLabelText('Verification code'), '654321');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(verifications(calls)).toHaveLength(1));
    expect(verifications(calls)[0].body).toEqual({ otpSms: { code: '654321' } });
  });

  test('the code input keeps digits only and at most six of them, and offers one-time-code autofill', async () => {
    givenPendingSession();
    fakeApi(api());
    const { user } = renderApp('/login/2fa');
    const input = (await screen.findByLabelText('Verification code')) as HTMLInputElement;
    expect(input.getAttribute('autocomplete')).toBe('one-time-code');
    expect(input.getAttribute('inputmode')).toBe('numeric');
    await user.type(input, '1a2b3-4 5678');
    expect(input.value).toBe('123456');
  });

  test('when a code is pasted with spaces, keeps its six digits', async () => {
    givenPendingSession();
    fakeApi(api());
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
    ['TOO_MANY_REQUESTS', apiError(429, 'TOO_MANY_REQUESTS', { unavailableUntil: '2099-01-01T00:00:00.000Z' }), 'Too many requests. Please try again later.'],
    ['MFA_TOKEN_EXPIRED', apiError(401, 'MFA_TOKEN_EXPIRED'), 'Something went wrong. Please try again.'],
    ['INTERNAL_SERVER_ERROR', apiError(500, 'INTERNAL_SERVER_ERROR'), 'Something went wrong. Please try again.'],
  ])('when verification answers %s, shows the matching message on the code', async (_code, reply, message) => {
    givenPendingSession();
    fakeApi(api(undefined, () => reply));
    const assign = jest.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
    const { user } = renderApp('/login/2fa');
    const input = await screen.findByLabelText('Verification code');
    await user.type(input, '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(message)).toBeTruthy();
    expect(document.getElementById(input.getAttribute('aria-describedby')!.split(' ')[0])?.textContent).toBe(message);
    expect(assign).not.toHaveBeenCalled();
  });

  test('when the code request answers 429, shows Too many requests and counts down from unavailableUntil', async () => {
    jest.useFakeTimers({ now: new Date('2030-01-01T10:00:00.000Z') });
    givenPendingSession();
    fakeApi(api(() => apiError(429, 'TOO_MANY_REQUESTS', { unavailableUntil: '2030-01-01T10:00:45.000Z' })));
    renderApp('/login/2fa', { fakeTimers: true });
    expect((await screen.findByRole('alert')).textContent).toBe('Too many requests. Please try again later.');
    expect(screen.getByText('Another try in 45')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Resend via email' }) as HTMLButtonElement).disabled).toBe(true);
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
    const assign = jest.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
    const { user } = renderApp('/login/2fa');
    await user.type(await screen.findByLabelText('Verification code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    const [verify] = verifications(calls);
    expect(verify.url.href).toBe(`${BRAZIL}${sessionPath}`);
    expect(verify.body).toEqual({ otpEmail: { code: '123456' } });
    expect(verify.headers.get('authorization')).toBe(`Bearer ${pending.accessToken}`);
    const url = new URL(assign.mock.calls[0][0]);
    expect(url.origin + url.pathname).toBe(REDIRECT);
    expect(Object.fromEntries(url.searchParams)).toEqual({ refreshToken: 'refresh-new', sessionId: pending.id, region: 'sa-east-1' });
    expect(window.sessionStorage.length).toBe(0);
  });

  test('when the stored redirect is gone by the time the code is right, goes to /invalid-redirect', async () => {
    givenPendingSession();
    fakeApi(api());
    const assign = jest.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
    const { user, location } = renderApp('/login/2fa');
    window.sessionStorage.removeItem('signIn.redirectUrl');
    await user.type(await screen.findByLabelText('Verification code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: /Login redirect failed/ })).toBeTruthy();
    expect(location()).toBe('/invalid-redirect');
    expect(assign).not.toHaveBeenCalled();
  });
});
