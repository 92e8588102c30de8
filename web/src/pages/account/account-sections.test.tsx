import { configure, screen, waitFor, within } from '@testing-library/react';
import {
  HANDED_OVER,
  PASSWORD,
  SESSION_ID,
  accountRegion,
  failedSignIn,
  lostPhone,
  ACCOUNT_WAIT_MS,
} from '../../test/account-api';
import { apiError, fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

configure({ asyncUtilTimeout: ACCOUNT_WAIT_MS });

const NEW_PASSWORD = 'Another-horse-22';

describe('/account: sessions', () => {
  test('lists her sessions with device, network and how each signed in, this one marked and without an End button', async () => {
    fakeApi(accountRegion().route);
    renderApp(HANDED_OVER);
    const sessions = await screen.findByRole('region', { name: "Where you're logged in" });
    const items = await within(sessions).findAllByRole('listitem');
    expect(items.map((item) => within(item).getByRole('heading').textContent)).toEqual([
      'Firefox on Windows This device',
      'Safari on iOS',
      'Unknown device',
    ]);
    expect(items[0].textContent).toContain('with password');
    expect(items[0].textContent).toContain('Network: 192.0.2.0/24');
    expect(items[1].textContent).toContain('with a passkey');
    expect(within(items[0]).queryByRole('button')).toBeNull();
  });

  test('End ends that session only, and the list no longer shows it', async () => {
    const { state, route } = accountRegion();
    const api = fakeApi(route);
    const { user } = renderApp(HANDED_OVER);
    await user.click(await screen.findByRole('button', { name: 'End the session on Safari on iOS' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Safari on iOS' })).toBeNull());
    const ended = api.calls.filter((call) => call.method === 'DELETE');
    expect(ended.map((call) => call.url.pathname)).toEqual([`/core/v1/sessions/${lostPhone.id}`]);
    expect(state.sessions.map((session) => session.id)).toContain(SESSION_ID);
    await waitFor(() =>
      expect(screen.getByTestId('announcer').textContent).toBe('The session on Safari on iOS has ended.'),
    );
  });

  test('End all other sessions keeps this one and says she is logged in only here', async () => {
    const api = fakeApi(accountRegion().route);
    const { user } = renderApp(HANDED_OVER);
    await user.click(await screen.findByRole('button', { name: 'End all other sessions' }));
    expect(await screen.findByText('You are logged in only here.')).toBeTruthy();
    const ended = api.calls.filter((call) => call.method === 'DELETE');
    expect(ended.map((call) => `${call.url.pathname}${call.url.search}`)).toEqual(['/core/v1/sessions?others=true']);
    expect(screen.getByRole('heading', { name: 'Firefox on Windows This device' })).toBeTruthy();
  });
});

describe('/account: change password', () => {
  async function fill(current: string, next: string, again = next) {
    const { user } = renderApp(HANDED_OVER);
    const form = await screen.findByRole('form', { name: 'Change password' });
    await user.type(within(form).getByLabelText('Current password'), current);
    await user.type(within(form).getByLabelText('New password'), next);
    await user.type(within(form).getByLabelText('Repeat the new password'), again);
    await user.click(within(form).getByRole('button', { name: 'Change password' }));
    return form;
  }
  const changes = (calls: { url: URL }[]) => calls.filter((call) => call.url.pathname.endsWith('/password-change'));

  test('a new password that breaks the rules is refused before anything is sent, each broken rule said', async () => {
    const api = fakeApi(accountRegion().route);
    await fill(PASSWORD, 'short');
    const field = screen.getByLabelText('New password');
    await waitFor(() => expect(document.activeElement).toBe(field));
    const error = document.getElementById('changed-password-error');
    expect(error?.textContent).toContain('Password must be at least 10 characters');
    expect(error?.textContent).toContain('Password must contain an uppercase letter');
    expect(changes(api.calls)).toHaveLength(0);
  });

  test('a different repetition is refused before anything is sent', async () => {
    const api = fakeApi(accountRegion().route);
    await fill(PASSWORD, NEW_PASSWORD, `${NEW_PASSWORD}x`);
    expect((await screen.findByText('The passwords do not match')).id).toBe('changed-confirm-error');
    expect(changes(api.calls)).toHaveLength(0);
  });

  test('changes it with the current password as proof, says so, and the other sessions are gone from the list', async () => {
    const api = fakeApi(accountRegion().route);
    await fill(PASSWORD, NEW_PASSWORD);
    expect(
      await screen.findByText('Your password has been changed. You are logged out everywhere else.', {
        selector: '[role=status]',
      }),
    ).toBeTruthy();
    expect(changes(api.calls).map((call) => (call as { body?: unknown }).body)).toEqual([
      { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
    ]);
    expect(await screen.findByText('You are logged in only here.')).toBeTruthy();
    expect((screen.getByLabelText('Current password') as HTMLInputElement).value).toBe('');
  });

  test('a wrong current password is said on that field, which takes the focus', async () => {
    fakeApi(accountRegion().route);
    await fill('not it', NEW_PASSWORD);
    const field = screen.getByLabelText('Current password');
    expect((await screen.findByText('The current password is incorrect.')).id).toBe('current-password-error');
    await waitFor(() => expect(document.activeElement).toBe(field));
  });

  test('PASSWORD_ON_BREACH_LIST from the server is shown on the new password', async () => {
    const { route } = accountRegion();
    fakeApi((call) =>
      call.url.pathname.endsWith('/password-change')
        ? apiError(400, 'BAD_REQUEST', {
            issues: [{ where: 'body', path: '/newPassword', message: 'breached', rule: 'PASSWORD_ON_BREACH_LIST' }],
          })
        : route(call),
    );
    await fill(PASSWORD, NEW_PASSWORD);
    const message = await screen.findByText(
      'This password is too common or has appeared in a data breach. Choose another one.',
    );
    expect(message.id).toBe('changed-password-error');
  });

  test('in Swedish, a wrong current password reads in Swedish', async () => {
    fakeApi(accountRegion().route);
    const { user } = renderApp(HANDED_OVER, { language: 'sv' });
    const form = await screen.findByRole('form', { name: 'Byt lösenord' });
    await user.type(within(form).getByLabelText('Nuvarande lösenord'), 'fel');
    await user.type(within(form).getByLabelText('Nytt lösenord'), NEW_PASSWORD);
    await user.type(within(form).getByLabelText('Upprepa det nya lösenordet'), NEW_PASSWORD);
    await user.click(within(form).getByRole('button', { name: 'Byt lösenord' }));
    expect(await screen.findByText('Det nuvarande lösenordet är fel.')).toBeTruthy();
  });
});

describe('/account: recent activity', () => {
  test('asks for the last 20 events of her own account and says each in plain words', async () => {
    const api = fakeApi(
      accountRegion({
        events: [
          failedSignIn,
          { ...failedSignIn, id: '1041', kind: 'sign_in_stepped_up', outcome: 'succeeded' },
          {
            ...failedSignIn,
            id: '1040',
            kind: 'sessions_ended',
            outcome: 'succeeded',
            actor: { type: 'user', userId: 3 },
            client: { network: null, userAgent: null },
          },
        ],
      }).route,
    );
    renderApp(HANDED_OVER);
    const activity = await screen.findByRole('region', { name: 'Recent activity' });
    const items = await within(activity).findAllByRole('listitem');
    const at = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(
      new Date(failedSignIn.at),
    );
    expect(items.map((item) => item.textContent)).toEqual([
      `A failed sign-in from 203.0.113.0/24 at ${at}`,
      `A sign-in with your password that needed an emailed code, from a new network, at ${at}`,
      `Sessions ended by an administrator at ${at}`,
    ]);
    const asked = api.calls.find((call) => call.url.pathname === '/core/v1/account/security-events');
    expect(asked?.url.searchParams.get('limit')).toBe('20');
  });

  test('with no events yet, says nothing has happened', async () => {
    fakeApi(accountRegion({ events: [] }).route);
    renderApp(HANDED_OVER);
    expect(await screen.findByText('Nothing has happened on your account yet.')).toBeTruthy();
  });

  test('in Swedish, the events read in Swedish', async () => {
    fakeApi(accountRegion().route);
    renderApp(HANDED_OVER, { language: 'sv' });
    const activity = await screen.findByRole('region', { name: 'Senaste händelser' });
    const [item] = await within(activity).findAllByRole('listitem');
    expect(item.textContent).toMatch(/^En misslyckad inloggning från 203\.0\.113\.0\/24, /);
  });
});
