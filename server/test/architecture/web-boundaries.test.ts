// The sign-in web app's walls and hook rules are lint rules (eslint.config.mjs, docs/architecture.md). A rule that
// silently stops matching (a renamed folder, a glob that no longer resolves) would let every wrong import through,
// so these tests lint deliberately wrong code, placed as if it were a source file, and expect the rule to report it;
// and lint allowed code placed the same way, so a wall drawn too wide is caught too.
import { lintCases, type LintMessage } from './lint-cases';

/** Each case: a fixture (under fixtures/web) and where it is linted as. */
const cases = {
  apiImportsConfig: ['api-imports-config.ts', 'web/src/api/fixture.ts'],
  configImportsLogin: ['config-imports-login.ts', 'web/src/config/fixture.ts'],
  configImportsLanguages: ['config-imports-languages.ts', 'web/src/config/fixture.ts'],
  languagesImportsConfig: ['languages-imports-config.ts', 'web/src/i18n/languages.ts'],
  loginImportsI18n: ['login-imports-i18n.ts', 'web/src/login/fixture.ts'],
  passwordImportsAWidget: ['password-imports-a-widget.ts', 'web/src/password/fixture.ts'],
  i18nImportsTheShell: ['i18n-imports-the-shell.ts', 'web/src/i18n/fixture.ts'],
  widgetImportsLogin: ['widget-imports-login.ts', 'web/src/components/fixture.ts'],
  shellImportsAPage: ['shell-imports-a-page.ts', 'web/src/app/fixture.ts'],
  routeTableImportsAPage: ['shell-imports-a-page.ts', 'web/src/app/app-routes.tsx'],
  pageImportsAnotherPage: ['page-imports-another-page.ts', 'web/src/pages/forgot-password/fixture.ts'],
  pageImportsTheRouteTable: ['page-imports-the-route-table.ts', 'web/src/pages/two-factor/fixture.ts'],
  pageImportsSharedShell: ['page-imports-shared-shell.ts', 'web/src/pages/forgot-password/fixture.ts'],
  shippedImportsATestHelper: ['shipped-imports-a-test-helper.ts', 'web/src/login/fixture.ts'],
  testImportsATestHelper: ['shipped-imports-a-test-helper.ts', 'web/src/login/fixture.test.ts'],
  staticCycle: ['static-cycle.ts', 'web/src/api/api-failure.ts'],
  hooks: ['hooks.tsx', 'web/src/components/fixture.tsx'],
} as const;

type Case = keyof typeof cases;
let linted: Record<Case, LintMessage[]>;

beforeAll(() => {
  const names = Object.keys(cases) as Case[];
  const answers = lintCases(names.map((name) => ({ fixture: `web/${cases[name][0]}`, asFile: cases[name][1] })));
  linted = Object.fromEntries(names.map((name, index) => [name, answers[index]])) as Record<Case, LintMessage[]>;
}, 120_000);

const walls = (name: Case) =>
  linted[name].filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);

describe('sign-in web app walls (lint)', () => {
  test.each([
    ['apiImportsConfig', 'api/ imports only the generated contract types'],
    ['configImportsLogin', 'config/ imports only the language list'],
    ['languagesImportsConfig', 'i18n/languages.ts is a leaf'],
    ['loginImportsI18n', 'login/ imports only api/ and config/'],
    ['passwordImportsAWidget', 'password/ imports no widget and no screen'],
    ['i18nImportsTheShell', 'i18n/ imports no widget, no password flow and no screen'],
    ['widgetImportsLogin', 'components/ imports only i18n/ and config/'],
    ['shellImportsAPage', 'only app-routes.tsx and page-loaders.ts import pages'],
    ['pageImportsAnotherPage', 'A page imports no other page'],
    ['pageImportsTheRouteTable', 'A page imports no other page and not the route table'],
    ['shippedImportsATestHelper', 'Shipped code imports no test helper'],
  ] as [Case, string][])('%s is reported', (name, message) => {
    expect(walls(name)).toEqual([expect.stringContaining(message)]);
  });

  test('configuration importing the language list is allowed', () => {
    expect(linted.configImportsLanguages).toEqual([]);
  });

  test('the route table importing a page is allowed', () => {
    expect(walls('routeTableImportsAPage')).toEqual([]);
  });

  test('a page importing the shared shell, widgets, texts and flows is allowed', () => {
    expect(linted.pageImportsSharedShell).toEqual([]);
  });

  test('a test importing a test helper is allowed', () => {
    expect(linted.testImportsATestHelper).toEqual([]);
  });

  test('a loop of static imports is reported', () => {
    expect(linted.staticCycle.filter((m) => m.ruleId === 'import-x/no-cycle')).toHaveLength(1);
  });

  test('a conditional hook and a missing effect dependency are reported', () => {
    expect(linted.hooks.map((m) => m.ruleId)).toEqual(['react-hooks/rules-of-hooks', 'react-hooks/exhaustive-deps']);
  });
});
