import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { AppTree } from './app/app-tree';
import en from './i18n/locales/en.json';
import sv from './i18n/locales/sv.json';
import { renderLoginScreen } from './prerender';
import { createTestI18n } from './test/i18n';
import { loginPath } from './test/render-app';

/** The prerendered login screen in `language`, as the host serves it, hydrated at `path` once `beforeApp` ran. */
async function hydrate(language: 'en' | 'sv', path: string, beforeApp: () => void = () => undefined) {
  const markup = await renderLoginScreen(language, language === 'en' ? en : sv);
  document.body.innerHTML = `<div id="root" data-prerendered="login">${markup}</div>`;
  beforeApp();
  const mismatches: unknown[] = [];
  const root = document.getElementById('root')!;
  await act(async () => {
    hydrateRoot(
      root,
      <AppTree
        i18n={createTestI18n(language)}
        router={(routes) => <MemoryRouter initialEntries={[path]}>{routes}</MemoryRouter>}
      />,
      { onRecoverableError: (error) => mismatches.push(error) },
    );
  });
  return { mismatches };
}

const field = (id: string) => document.getElementById(id) as HTMLInputElement;

afterEach(() => {
  document.body.innerHTML = '';
  window.sessionStorage.clear();
});

test('the build renders the login form with its fields, in the language asked for, and a submit button that submits nothing yet', async () => {
  const markup = await renderLoginScreen('sv', sv);
  document.body.innerHTML = markup;
  expect(screen.getByRole('heading', { name: sv.login.title })).toBeTruthy();
  expect(field('email')).toBeTruthy();
  expect(field('password')).toBeTruthy();
  expect(screen.getByRole('button', { name: sv.login.submit }).getAttribute('type')).toBe('button');
});

test.each(['en', 'sv'] as const)(
  'the app hydrates the prerendered screen (%s) without a mismatch, then names the platform and submits',
  async (language) => {
    const { mismatches } = await hydrate(language, loginPath());
    expect(mismatches).toEqual([]);
    const T = language === 'en' ? en : sv;
    await waitFor(() => expect(document.getElementById('login-platform')).not.toBeNull());
    expect(screen.getByRole('button', { name: T.login.submit }).getAttribute('type')).toBe('submit');
  },
);

test('what was typed before the app ran becomes the form values: nothing is reset, and no "required" error', async () => {
  const { mismatches } = await hydrate('en', loginPath(), () => {
    field('email').value = 'anna@demo.test';
    field('password').value = 'typed-before';
  });
  expect(mismatches).toEqual([]);
  expect(field('email').value).toBe('anna@demo.test');
  expect(field('password').value).toBe('typed-before');
  // The sign-in itself goes nowhere here: what matters is that it starts with the typed values.
  const sent = jest.fn(() => new Promise<Response>(() => undefined));
  globalThis.fetch = sent as typeof fetch;
  // Leaving a field re-renders it: a form that did not know the typed text would empty the field here.
  fireEvent.blur(field('email'));
  fireEvent.blur(field('password'));
  await act(async () => {
    fireEvent.submit(field('email').closest('form')!);
  });
  expect(field('email').value).toBe('anna@demo.test');
  expect(field('password').value).toBe('typed-before');
  expect(screen.queryByText(en.validation.emailRequired)).toBeNull();
  expect(screen.queryByText(en.validation.passwordRequired)).toBeNull();
  // It passed validation and went on to ask the regions.
  await waitFor(() => expect(sent).toHaveBeenCalled());
});

test('a prerendered /login reached without an allowed redirect still hydrates cleanly, then goes to the warning page', async () => {
  const { mismatches } = await hydrate('en', '/login?redirectUrl=https%3A%2F%2Fevil.example%2F');
  expect(mismatches).toEqual([]);
  await screen.findByRole('heading', { name: en.invalidRedirect.title });
});

describe('a press of Log in before the app runs (issue 46 §2)', () => {
  /** Runs the prerendered page's early-press script (web/shell/early-press.js), as the page loads it before the app. */
  function runEarlyPressScript() {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { readFileSync } = require('node:fs') as typeof import('node:fs');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { join } = require('node:path') as typeof import('node:path');
    new Function(readFileSync(join(__dirname, '..', 'shell', 'early-press.js'), 'utf8'))();
  }

  afterEach(() => document.documentElement.removeAttribute('data-early-press'));

  test.each([
    ['a click on Log in', () => fireEvent.click(screen.getByRole('button', { name: en.login.submit }))],
    ['Enter in the password field', () => fireEvent.keyDown(field('password'), { key: 'Enter' })],
  ])(
    '%s is recorded by the page and replayed once the app has taken it over: the sign-in starts',
    async (_name, press) => {
      const sent = jest.fn(() => new Promise<Response>(() => undefined));
      globalThis.fetch = sent as typeof fetch;
      const { mismatches } = await hydrate('en', loginPath(), () => {
        runEarlyPressScript();
        field('email').value = 'anna@demo.test';
        field('password').value = 'typed-before';
        press();
        // The browser itself submits nothing: the prerendered button is a plain button.
        expect(sent).not.toHaveBeenCalled();
      });
      expect(mismatches).toEqual([]);
      await waitFor(() => expect(sent).toHaveBeenCalled());
      expect(document.documentElement.hasAttribute('data-early-press')).toBe(false);
    },
  );

  test('without an early press, the app that takes the form over submits nothing by itself', async () => {
    const sent = jest.fn(() => new Promise<Response>(() => undefined));
    globalThis.fetch = sent as typeof fetch;
    await hydrate('en', loginPath(), () => {
      runEarlyPressScript();
      field('email').value = 'anna@demo.test';
      field('password').value = 'typed-before';
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sent.mock.calls.filter((call) => String((call as unknown[])[0]).includes('/probes/'))).toEqual([]);
  });
});
