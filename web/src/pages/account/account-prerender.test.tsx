import { act, configure, screen } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { AppTree } from '../../app/app-tree';
import en from '../../i18n/locales/en.json';
import sv from '../../i18n/locales/sv.json';
import { renderAccountShell } from '../../prerender';
import { ACCOUNT_WAIT_MS, HANDED_OVER, accountRegion } from '../../test/account-api';
import { fakeApi } from '../../test/fake-api';
import { createTestI18n } from '../../test/i18n';

configure({ asyncUtilTimeout: ACCOUNT_WAIT_MS });

afterEach(() => {
  document.body.innerHTML = '';
});

test('the build renders the account shell in the language asked for: the layout and its loading line, no token, no page yet', async () => {
  const markup = await renderAccountShell('sv', sv);
  document.body.innerHTML = markup;
  expect(screen.getByRole('status').textContent).toBe(sv.app.loading);
  expect(screen.getByRole('combobox', { name: sv.app.language })).toBeTruthy();
  expect(screen.queryByRole('heading', { name: sv.account.title })).toBeNull();
  expect(markup).not.toMatch(/accessToken|sessionId/);
  // No boundary left for the client to render (React would report it as an error on hydration).
  expect(markup).not.toContain('<!--$!-->');
});

test('the app hydrates the prerendered account shell without a mismatch, then shows her account', async () => {
  fakeApi(accountRegion().route);
  document.body.innerHTML = `<div id="root" data-prerendered="account">${await renderAccountShell('en', en)}</div>`;
  const mismatches: unknown[] = [];
  await act(async () => {
    hydrateRoot(
      document.getElementById('root')!,
      <AppTree
        i18n={createTestI18n('en')}
        router={(routes) => <MemoryRouter initialEntries={[HANDED_OVER]}>{routes}</MemoryRouter>}
      />,
      { onRecoverableError: (error) => mismatches.push(error) },
    );
  });
  expect(await screen.findByRole('heading', { level: 1, name: en.account.title })).toBeTruthy();
  expect(await screen.findByRole('heading', { name: 'Work laptop' })).toBeTruthy();
  expect(mismatches).toEqual([]);
});
