import { cleanup, screen, waitFor } from '@testing-library/react';
import { EUROPE, type Reply, type Route, apiError, fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

const TOKEN = 'Xq7vR2mN9kLp4sT8wY1zB6cD3fG5hJ0a';
const resetPath = `/reset-password?userId=7&token=${TOKEN}&lng=en`;
const state = (value: string): Reply => ({ status: 200, body: { state: value } });
const valid: Route = (call) =>
  call.method === 'GET' ? (call.url.origin === EUROPE ? state('valid') : state('invalid')) : { status: 204 };

describe('/reset-password: the link and the password limits', () => {
  test('the token leaves the address once read (other parameters stay); a reload of the bare page still finds the link in this tab', async () => {
    const { calls } = fakeApi(valid);
    const { location } = renderApp(resetPath);
    await screen.findByLabelText('New password');
    await waitFor(() => expect(location()).toBe('/reset-password?lng=en'));
    expect(calls[0].headers.get('cosafe-password-token')).toBe(TOKEN);
    expect(calls[0].url.search).toBe('');
    cleanup();
    renderApp('/reset-password');
    expect(await screen.findByLabelText('New password')).toBeTruthy();
    expect(
      calls
        .filter((call) => call.method === 'GET')
        .at(-1)
        ?.headers.get('cosafe-password-token'),
    ).toBe(TOKEN);
  });

  test('when the form appears, its first field takes the focus and the new title is announced', async () => {
    fakeApi(valid);
    renderApp(resetPath);
    const field = await screen.findByLabelText('New password');
    await waitFor(() => expect(document.activeElement).toBe(field));
    await waitFor(() => expect(screen.getByTestId('announcer').textContent).toBe('Choose a new password'));
  });

  test('a password over 256 characters is refused in the form with its own message, and nothing is sent', async () => {
    const { calls } = fakeApi(valid);
    const { user } = renderApp(resetPath);
    const field = await screen.findByLabelText('New password');
    const long = `Aa1!${'x'.repeat(253)}`;
    await user.click(field);
    await user.paste(long);
    await user.click(screen.getByLabelText('Repeat the new password'));
    await user.paste(long);
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Password can be at most 256 characters')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  test('when the server names PASSWORD_TOO_LONG, the same message shows on the field', async () => {
    fakeApi((call) =>
      call.method === 'POST'
        ? apiError(400, 'BAD_REQUEST', {
            issues: [{ where: 'body', path: '/newPassword', message: 'too long', rule: 'PASSWORD_TOO_LONG' }],
          })
        : valid(call),
    );
    const { user } = renderApp(resetPath);
    await user.type(await screen.findByLabelText('New password'), 'Demo-Password-2!');
    await user.type(screen.getByLabelText('Repeat the new password'), 'Demo-Password-2!');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Password can be at most 256 characters')).toBeTruthy();
  });

  test('an error above the form goes once the password is changed, so it never stands beside a different password', async () => {
    fakeApi((call) => (call.method === 'POST' ? apiError(500, 'INTERNAL_SERVER_ERROR') : valid(call)));
    const { user } = renderApp(resetPath);
    await user.type(await screen.findByLabelText('New password'), 'Demo-Password-2!');
    await user.type(screen.getByLabelText('Repeat the new password'), 'Demo-Password-2!');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Something went wrong. Please try again.');
    await user.type(screen.getByLabelText('New password'), 'x');
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });
});
