import { screen } from '@testing-library/react';
import { BRAZIL, EUROPE, NETWORK_DOWN, type Reply, apiError, deferred, fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

const TOKEN = '9yq2Zb0tq3Xv7mJ4c1sPz8rN5kWfLhQe2uVdGaTiYoM';
const linkPath = (region = 'sa-east-1', token = TOKEN) => `/remove-passkey?token=${token}&region=${region}&lng=en`;

const ASK = 'Remove the new passkey?';
const BUTTON = 'Remove passkey';

describe('/remove-passkey', () => {
  test('opening the link removes nothing: it asks, and only the press sends the token to the region the link names', async () => {
    const answer = deferred<Reply>();
    const { calls } = fakeApi(() => answer.promise);
    const { user } = renderApp(linkPath());
    expect(await screen.findByRole('heading', { name: ASK })).toBeTruthy();
    expect(screen.getByText(/^Remove the passkey that was just added to your account\?/)).toBeTruthy();
    expect(document.title).toBe(ASK);
    expect(calls).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: BUTTON }));
    expect(calls).toHaveLength(1);
    expect(`${calls[0].method} ${calls[0].url.href}`).toBe(`POST ${BRAZIL}/core/v1/passkeys/removal`);
    expect(calls[0].body).toEqual({ token: TOKEN });
    expect(calls[0].headers.get('Accept-Language')).toBe('en');
    expect(calls[0].headers.get('Authorization')).toBeNull();

    answer.resolve({ status: 204 });
    const done = await screen.findByRole('heading', { name: 'The passkey is removed' });
    expect(screen.getByText('The passkey is removed. If you did not add it, reset your password.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Reset your password' }).getAttribute('href')).toBe('/forgot-password');
    expect(document.activeElement).toBe(done);
    expect(calls).toHaveLength(1);
  });

  test('a keyboard press works the same: Enter on the focused button removes the passkey', async () => {
    const { calls } = fakeApi(() => ({ status: 204 }));
    const { user } = renderApp(linkPath('eu-north-1'));
    await screen.findByRole('heading', { name: ASK });
    await user.tab();
    // The first tab stops may be the page's header controls; tab until the button has the focus.
    const button = screen.getByRole('button', { name: BUTTON });
    for (let i = 0; i < 10 && document.activeElement !== button; i++) await user.tab();
    expect(document.activeElement).toBe(button);
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('heading', { name: 'The passkey is removed' })).toBeTruthy();
    expect(calls.map((call) => call.url.href)).toEqual([`${EUROPE}/core/v1/passkeys/removal`]);
  });

  test('an expired or used link (404) says it can no longer be used, and the button is gone', async () => {
    fakeApi(() => apiError(404, 'NOT_FOUND'));
    const { user } = renderApp(linkPath());
    await user.click(await screen.findByRole('button', { name: BUTTON }));
    const heading = await screen.findByRole('heading', { name: 'This link can no longer be used' });
    expect(screen.getByText(/^The link has expired or has already been used\./)).toBeTruthy();
    expect(screen.queryByRole('button', { name: BUTTON })).toBeNull();
    expect(document.activeElement).toBe(heading);
  });

  test('429: says how long to wait, in an alert that takes the focus, and the button waits too', async () => {
    const { calls } = fakeApi(() =>
      apiError(429, 'TOO_MANY_REQUESTS', { unavailableUntil: new Date(Date.now() + 300_000).toISOString() }),
    );
    const { user } = renderApp(linkPath());
    await user.click(await screen.findByRole('button', { name: BUTTON }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Too many attempts. Please wait 5 minutes and try again.');
    expect(document.activeElement).toBe(alert);
    const button = screen.getByRole('button', { name: BUTTON });
    expect(button.getAttribute('aria-disabled')).toBe('true');
    await user.click(button);
    expect(calls).toHaveLength(1);
  });

  test('no connection: asks to check it, and the button works again', async () => {
    let down = true;
    const { calls } = fakeApi((call) => (down ? NETWORK_DOWN(call) : { status: 204 }));
    const { user } = renderApp(linkPath());
    await user.click(await screen.findByRole('button', { name: BUTTON }));
    expect((await screen.findByRole('alert')).textContent).toBe('Check your connection and try again.');
    down = false;
    await user.click(screen.getByRole('button', { name: BUTTON }));
    expect(await screen.findByRole('heading', { name: 'The passkey is removed' })).toBeTruthy();
    expect(calls).toHaveLength(2);
  });

  test.each([
    ['no token', '/remove-passkey?region=sa-east-1'],
    ['a malformed token', linkPath('sa-east-1', 'short')],
    ['no region', `/remove-passkey?token=${TOKEN}`],
    ['a region this app does not serve', linkPath('us-east-1')],
  ])('a link with %s is not valid and its token is sent nowhere', async (_case, path) => {
    const { calls } = fakeApi(() => ({ status: 204 }));
    renderApp(path);
    expect(await screen.findByRole('heading', { name: 'This link is not valid' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: BUTTON })).toBeNull();
    expect(calls).toHaveLength(0);
  });

  test('the page is in the language the link names', async () => {
    fakeApi(() => ({ status: 204 }));
    renderApp(linkPath().replace('lng=en', 'lng=sv'), { language: 'sv' });
    expect(await screen.findByRole('button', { name: 'Ta bort lösennyckeln' })).toBeTruthy();
  });
});
