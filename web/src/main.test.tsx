import { screen } from '@testing-library/react';
import { act } from 'react';
import sv from './i18n/locales/sv.json';
import { REDIRECT } from './test/render-app';

test("when the real entry point boots, it loads the translations of the language index.html's boot script chose, then shows the login form in it", async () => {
  window.history.replaceState(null, '', `/login?redirectUrl=${encodeURIComponent(REDIRECT)}&lng=sv`);
  // What the boot script leaves: the language on <html lang>, and the shell in #root until the app renders.
  document.documentElement.lang = 'sv';
  document.body.innerHTML = '<div id="root"><p id="boot-status" role="status">Laddar…</p></div>';
  const fetched: string[] = [];
  globalThis.fetch = jest.fn(async (input: string | URL | Request) => {
    const url = new URL(input instanceof Request ? input.url : input);
    fetched.push(url.pathname);
    return url.pathname === '/locales/sv.json' ? Response.json(sv) : new Response(null, { status: 404 });
  }) as typeof fetch;
  await act(async () => {
    await import('./main');
  });
  expect(await screen.findByRole('heading', { name: 'Logga in i produkten' }, { timeout: 5000 })).toBeTruthy();
  expect(screen.queryByText('Laddar…')).toBeNull();
  expect(document.documentElement.lang).toBe('sv');
  expect(window.localStorage.getItem('i18nextLng')).toBe('sv');
  expect(screen.getByRole('combobox', { name: 'Språk' })).toBeTruthy();
  // Only the chosen language is fetched: English would come only for a missing key.
  expect(fetched).toEqual(['/locales/sv.json']);
});
