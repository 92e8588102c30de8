import { screen } from '@testing-library/react';
import { act } from 'react';
import { REDIRECT } from './test/render-app';

test('when the real entry point boots, it detects the language from the query, loads its translations on demand and shows the login form', async () => {
  window.history.replaceState(null, '', `/login?redirectUrl=${encodeURIComponent(REDIRECT)}&lng=sv`);
  document.body.innerHTML = '<div id="root"></div>';
  await act(async () => {
    await import('./main');
  });
  expect(await screen.findByRole('heading', { name: 'Logga in i produkten' }, { timeout: 5000 })).toBeTruthy();
  expect(document.documentElement.lang).toBe('sv');
  expect(window.localStorage.getItem('i18nextLng')).toBe('sv');
  expect(screen.getByRole('combobox', { name: 'Språk' })).toBeTruthy();
});
