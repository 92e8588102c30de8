import { screen, waitFor } from '@testing-library/react';
import { lazySchema, CODE_NOT_LOADED } from '../../app/schema-validation';
import { browserLocation } from '../../login/browser-location';
import { EUROPE, BRAZIL, fakeApi, probeReply, sessionBody } from '../../test/fake-api';
import { loginPath, renderApp } from '../../test/render-app';

/** Which chunks loaded on demand cannot be fetched right now (the connection dropped after the form appeared). */
const mockLost = new Set<string>();
function mockChunk(name: string, actual: () => unknown) {
  if (mockLost.has(name)) throw new TypeError(`Failed to fetch dynamically imported module: ${name}`);
  return actual();
}
jest.mock('./login-schema', () => mockChunk('login-schema', () => jest.requireActual('./login-schema')));
jest.mock('../../login/sign-in-flow', () =>
  mockChunk('sign-in-flow', () => jest.requireActual('../../login/sign-in-flow')),
);
jest.mock('./region-step', () => mockChunk('region-step', () => jest.requireActual('./region-step')));
jest.mock('./sso-step', () => mockChunk('sso-step', () => jest.requireActual('./sso-step')));

afterEach(() => mockLost.clear());

function api(bothRegions = false) {
  return fakeApi((call) => {
    if (call.url.pathname.startsWith('/core/v1/probes/'))
      return call.url.origin === EUROPE ? probeReply('eu-north-1', true) : probeReply('sa-east-1', bothRegions, BRAZIL);
    return { status: 201, body: sessionBody() };
  });
}

const CONNECTION = 'Check your connection and try again.';

describe('lazySchema', () => {
  test('a schema whose code cannot be fetched ends the validation with the form-level "not loaded" error instead of a rejection, and the next validation loads it again', async () => {
    const { loginSchema } = jest.requireActual<typeof import('./login-schema')>('./login-schema');
    const load = jest
      .fn<Promise<typeof loginSchema>, []>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue(loginSchema);
    const validate = lazySchema(load);
    await expect(validate({ email: '', password: '' })).resolves.toEqual({ [CODE_NOT_LOADED]: 'errors.connection' });
    await expect(validate({ email: '', password: '' })).resolves.toEqual({
      email: 'validation.emailRequired',
      password: 'validation.passwordRequired',
    });
    expect(load).toHaveBeenCalledTimes(2);
  });
});

/*
 * A chunk that loaded once stays loaded (the module registry keeps it, as the browser does), and the login page
 * warms every chunk up as it opens: so each test loses, from before the page opens, the chunks it and the later
 * tests need lost, in this order.
 */
describe('/login when code loaded on demand cannot be fetched', () => {
  test('a lost validation chunk, then a lost network chunk: each press ends with "Check your connection and try again" and Log in not busy, nothing is sent, and the press after the connection returns signs in', async () => {
    const { calls } = api();
    const replace = jest.spyOn(browserLocation, 'replace').mockImplementation(() => undefined);
    ['login-schema', 'sign-in-flow', 'region-step', 'sso-step'].forEach((chunk) => mockLost.add(chunk));
    const { user } = renderApp(loginPath());
    await user.type(screen.getByLabelText('Email'), 'anna@demo.test');
    await user.type(screen.getByLabelText('Password'), 'Demo-Password-1!');
    const logIn = () => screen.getByRole('button', { name: 'Log in' });
    for (const chunk of ['login-schema', 'sign-in-flow']) {
      await user.click(logIn());
      expect((await screen.findByRole('alert')).textContent).toBe(CONNECTION);
      await waitFor(() => expect(logIn().getAttribute('aria-busy')).not.toBe('true'));
      mockLost.delete(chunk);
    }
    expect(calls).toEqual([]);
    await user.click(logIn());
    await waitFor(() => expect(replace).toHaveBeenCalledTimes(1));
  });

  test('a lost SSO step leaves the login form with the message, and the next press opens the step', async () => {
    api();
    ['region-step', 'sso-step'].forEach((chunk) => mockLost.add(chunk));
    const { user } = renderApp(loginPath());
    await user.click(screen.getByRole('button', { name: 'Log in with SSO' }));
    expect((await screen.findByRole('alert')).textContent).toBe(CONNECTION);
    mockLost.delete('sso-step');
    await user.click(screen.getByRole('button', { name: 'Log in with SSO' }));
    expect(await screen.findByRole('heading', { name: 'Log in with SSO' })).toBeTruthy();
  });

  test('a lost region step leaves the login form with the message, and the next press opens the step', async () => {
    api(true);
    mockLost.add('region-step');
    const { user } = renderApp(loginPath());
    await user.type(screen.getByLabelText('Email'), 'maria@demo.test');
    await user.type(screen.getByLabelText('Password'), 'Demo-Password-1!');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect((await screen.findByRole('alert')).textContent).toBe(CONNECTION);
    mockLost.delete('region-step');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('heading', { name: 'Select region' })).toBeTruthy();
  });
});
