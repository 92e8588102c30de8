import { act, screen, waitFor } from '@testing-library/react';
import { browserLocation } from '../../login/browser-location';
import { EUROPE, type Route, apiError, deferred, fakeApi, probeReply, sessionBody } from '../../test/fake-api';
import { loginPath, renderApp } from '../../test/render-app';

const announced = () => screen.getByTestId('announcer').textContent;
const unavailable = (name: string) => screen.getByRole('button', { name }).getAttribute('aria-disabled') === 'true';

async function fillIn(user: ReturnType<typeof renderApp>['user'], email: string, password: string) {
  await user.type(screen.getByLabelText('Email'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Log in' }));
}

const bothRegions: Route = (call) =>
  call.url.pathname.startsWith('/core/v1/probes/')
    ? probeReply(call.url.origin === EUROPE ? 'eu-north-1' : 'sa-east-1', true, call.url.origin)
    : { status: 201, body: sessionBody() };

describe('/login: focus, announcements and waits', () => {
  test('on arrival the email field has the focus, and the page is not announced (the browser reads the title of a page it loads)', async () => {
    renderApp(loginPath());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Email')));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(announced()).toBe('');
  });

  test('while the sign-in is under way, Log in stays focusable and is marked busy and unavailable', async () => {
    const answer = deferred<ReturnType<typeof probeReply>>();
    fakeApi(() => answer.promise);
    const { user } = renderApp(loginPath());
    await fillIn(user, 'anna@demo.test', 'secret');
    const button = screen.getByRole('button', { name: 'Log in' }) as HTMLButtonElement;
    await waitFor(() => expect(button.getAttribute('aria-busy')).toBe('true'));
    expect([button.disabled, unavailable('Log in'), document.activeElement]).toEqual([false, true, button]);
    await act(async () => answer.resolve(probeReply('eu-north-1', false)));
  });

  test('when an error is shown above the form, the alert takes the focus', async () => {
    fakeApi((call) =>
      call.url.pathname.startsWith('/core/v1/probes/')
        ? probeReply('eu-north-1', call.url.origin === EUROPE, call.url.origin)
        : apiError(403, 'FORBIDDEN'),
    );
    const { user } = renderApp(loginPath());
    await fillIn(user, 'anna@demo.test', 'secret');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Wrong login');
    await waitFor(() => expect(document.activeElement).toBe(alert));
  });

  test('a 429 counts down in the message with its unit, Log in is unavailable until the wait ends, then the alert goes and the button takes the focus', async () => {
    jest.useFakeTimers({ now: new Date('2030-01-01T10:00:00.000Z') });
    const calls = fakeApi(() =>
      apiError(429, 'TOO_MANY_REQUESTS', { unavailableUntil: '2030-01-01T10:00:03.000Z' }),
    ).calls;
    const { user } = renderApp(loginPath(), { fakeTimers: true });
    await fillIn(user, 'anna@demo.test', 'secret');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Too many attempts. Please wait 3 seconds and try again.');
    expect(screen.getByRole('timer').textContent).toBe('3 seconds');
    expect(unavailable('Log in')).toBe(true);
    await act(() => jest.advanceTimersByTimeAsync(1000));
    expect(alert.textContent).toBe('Too many attempts. Please wait 2 seconds and try again.');
    const asked = calls.length;
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await user.type(screen.getByLabelText('Password'), '{Enter}');
    expect(calls).toHaveLength(asked);
    alert.focus();
    await act(() => jest.advanceTimersByTimeAsync(2000));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(unavailable('Log in')).toBe(false);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Log in' }));
  });

  test('the region step puts the focus in its region list and is announced; Back returns to the form, its heading focused and announced', async () => {
    fakeApi(bothRegions);
    const { user } = renderApp(loginPath());
    await fillIn(user, 'maria@demo.test', 'secret');
    await screen.findByRole('heading', { name: 'Select region' });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('combobox', { name: 'Region' })));
    await waitFor(() => expect(announced()).toBe('Select region'));
    await user.click(screen.getByRole('button', { name: 'Back to login' }));
    const login = await screen.findByRole('heading', { name: 'Log in to the product' });
    await waitFor(() => expect(document.activeElement).toBe(login));
    await waitFor(() => expect(announced()).toBe('Log in to the product'));
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('maria@demo.test');
  });

  test('a password field warns while Caps Lock is on, the warning tied to the field, and not after it is left', async () => {
    const { user } = renderApp(loginPath());
    const password = screen.getByLabelText('Password');
    await user.click(password);
    await user.keyboard('{CapsLock}a');
    const notice = await screen.findByText('Caps Lock is on');
    expect(password.getAttribute('aria-describedby')).toContain(notice.closest('p')?.id);
    await user.keyboard('{CapsLock}b');
    await waitFor(() => expect(screen.queryByText('Caps Lock is on')).toBeNull());
    await user.keyboard('{CapsLock}c');
    await screen.findByText('Caps Lock is on');
    await user.click(screen.getByLabelText('Email'));
    expect(screen.queryByText('Caps Lock is on')).toBeNull();
  });

  test('the sign-in leaves for the platform by replacing this page in the history, so Back does not return to a sign-in that is over', async () => {
    fakeApi((call) =>
      call.url.pathname.startsWith('/core/v1/probes/')
        ? probeReply(
            call.url.origin === EUROPE ? 'eu-north-1' : 'sa-east-1',
            call.url.origin === EUROPE,
            call.url.origin,
          )
        : { status: 201, body: sessionBody() },
    );
    const replace = jest.spyOn(browserLocation, 'replace').mockImplementation(() => undefined);
    const assign = jest.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
    const { user } = renderApp(loginPath());
    await fillIn(user, 'anna@demo.test', 'secret');
    await waitFor(() => expect(replace).toHaveBeenCalledTimes(1));
    expect(assign).not.toHaveBeenCalled();
  });
});
