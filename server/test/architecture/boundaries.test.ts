// The module boundaries are lint rules (eslint.config.mjs, docs/architecture.md). A rule that silently stops
// matching (a renamed folder, a resolver that no longer resolves) would let every wrong import through, so these
// tests lint deliberately wrong imports, placed as if they were source files, and expect the rule to report them.
import { lintCases, type LintMessage } from './lint-cases';

/** Every (fixture, as-file) pair the tests below lint: linted together, in one ESLint run, before the tests. */
const cases: [fixture: string, asFile: string][] = [
  ['http-imports-a-module.ts', 'server/src/http/fixture.ts'],
  ['module-imports-another-modules-repository.ts', 'server/src/modules/scim/fixture.ts'],
  ['face-re-exports-its-repository.ts', 'server/src/modules/sessions/index.ts'],
  ['face-re-exports-its-repository.ts', 'server/src/modules/sessions/lockouts.ts'],
  ['sessions-imports-sso.ts', 'server/src/modules/sessions/index.ts'],
  ['db-imports-messages.ts', 'server/src/db/fixture.ts'],
  ['security-imports-services-type.ts', 'server/src/security/fixture.ts'],
  ['module-imports-services-type.ts', 'server/src/modules/meeting-rooms/fixture.ts'],
  ['prepared-imports-database-type.ts', 'server/src/db/prepared.ts'],
  ['service-imports-kysely.ts', 'server/src/modules/users/users.service.ts'],
  ['service-builds-a-query.ts', 'server/src/jobs/fixture.ts'],
  ['service-starts-a-query-with-a-cte.ts', 'server/src/modules/users/users.service.ts'],
  ['service-starts-a-query-with-a-cte.ts', 'server/src/modules/users/users.repository.ts'],
  ['service-imports-kysely.ts', 'server/src/modules/users/users.repository.ts'],
  ['service-builds-a-query.ts', 'server/src/modules/users/users.repository.ts'],
  ['service-builds-a-query.ts', 'server/src/db/fixture.ts'],
  ['module-imports-another-modules-index.ts', 'server/src/modules/scim/fixture.ts'],
];
let linted: Map<string, LintMessage[]>;
beforeAll(() => {
  const answers = lintCases(cases.map(([fixture, asFile]) => ({ fixture, asFile })));
  linted = new Map(cases.map(([fixture, asFile], index) => [`${fixture} as ${asFile}`, answers[index]]));
}, 120_000);

/** A fixture's messages when linted as if it lived at `asFile` (relative to the repository); the pair is in `cases`. */
function lintAs(fixture: string, asFile: string): LintMessage[] {
  const messages = linted.get(`${fixture} as ${asFile}`);
  if (!messages) throw new Error(`${fixture} as ${asFile} is not in this file's cases`);
  return messages;
}

const boundary = (messages: LintMessage[]) => messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths');

describe('module boundaries (lint)', () => {
  test('http/ importing a module is reported', () => {
    expect(boundary(lintAs('http-imports-a-module.ts', 'server/src/http/fixture.ts')).map((m) => m.message)).toEqual([
      expect.stringContaining('Infrastructure and the shared kernel import no module'),
    ]);
  });

  test("a module importing another module's repository is reported", () => {
    expect(
      boundary(lintAs('module-imports-another-modules-repository.ts', 'server/src/modules/scim/fixture.ts')).map(
        (m) => m.message,
      ),
    ).toEqual([expect.stringContaining('only through its index.ts')]);
  });

  test("a module's index.ts re-exporting its repository is reported; re-exporting a service is not", () => {
    expect(
      boundary(lintAs('face-re-exports-its-repository.ts', 'server/src/modules/sessions/index.ts')).map(
        (m) => m.message,
      ),
    ).toEqual([expect.stringContaining('offers intentions'), expect.stringContaining('offers intentions')]);
    expect(boundary(lintAs('face-re-exports-its-repository.ts', 'server/src/modules/sessions/lockouts.ts'))).toEqual(
      [],
    );
  });

  test('a cycle between modules is reported', () => {
    const cycles = lintAs('sessions-imports-sso.ts', 'server/src/modules/sessions/index.ts').filter(
      (m) => m.ruleId === 'local/no-import-cycle',
    );
    expect(cycles).toHaveLength(1);
  });

  test('an import up the layers is reported', () => {
    expect(boundary(lintAs('db-imports-messages.ts', 'server/src/db/fixture.ts')).map((m) => m.message)).toEqual([
      expect.stringContaining('Upward import: db/ imports only the layers below it'),
    ]);
  });

  test('a type-only import up the layers is reported', () => {
    expect(
      boundary(lintAs('security-imports-services-type.ts', 'server/src/security/fixture.ts')).map((m) => m.message),
    ).toEqual([expect.stringContaining('Upward import: security/ imports only the layers below it')]);
  });

  test('a module importing the boot-time Services object (services.ts) is reported', () => {
    expect(
      boundary(lintAs('module-imports-services-type.ts', 'server/src/modules/meeting-rooms/fixture.ts')).map(
        (m) => m.message,
      ),
    ).toEqual([expect.stringContaining('Modules do not import services.ts')]);
  });

  test('a cycle closed by a type-only import is reported', () => {
    const messages = lintAs('prepared-imports-database-type.ts', 'server/src/db/prepared.ts');
    expect(messages.filter((m) => m.ruleId === 'local/no-import-cycle').map((m) => m.message)).toEqual([
      'Import cycle (type-only imports count): server/src/db/prepared.ts → server/src/db/database.ts → server/src/db/prepared.ts',
    ]);
  });

  const sqlRule = (messages: LintMessage[]) =>
    messages.filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax');

  test('Kysely imported outside a repository is reported, the statement written with it too', () => {
    expect(
      sqlRule(lintAs('service-imports-kysely.ts', 'server/src/modules/users/users.service.ts')).map((m) => [
        m.ruleId,
        m.message,
      ]),
    ).toEqual([
      ['no-restricted-imports', expect.stringContaining('SQL lives in repositories')],
      ['no-restricted-syntax', expect.stringContaining('SQL lives in repositories')],
    ]);
  });

  test('a statement built on a database handle outside a repository is reported', () => {
    expect(
      sqlRule(lintAs('service-builds-a-query.ts', 'server/src/jobs/fixture.ts')).map((m) => [m.ruleId, m.message]),
    ).toEqual([['no-restricted-syntax', expect.stringContaining('SQL lives in repositories')]]);
  });

  test('a statement started with a common table expression outside a repository is reported', () => {
    expect(
      sqlRule(lintAs('service-starts-a-query-with-a-cte.ts', 'server/src/modules/users/users.service.ts')).map((m) => [
        m.ruleId,
        m.message,
      ]),
    ).toEqual([['no-restricted-syntax', expect.stringContaining('SQL lives in repositories')]]);
    expect(
      sqlRule(lintAs('service-starts-a-query-with-a-cte.ts', 'server/src/modules/users/users.repository.ts')),
    ).toEqual([]);
  });

  test('Kysely and statements inside a repository or db/ are allowed', () => {
    expect(sqlRule(lintAs('service-imports-kysely.ts', 'server/src/modules/users/users.repository.ts'))).toEqual([]);
    expect(sqlRule(lintAs('service-builds-a-query.ts', 'server/src/modules/users/users.repository.ts'))).toEqual([]);
    expect(sqlRule(lintAs('service-builds-a-query.ts', 'server/src/db/fixture.ts'))).toEqual([]);
  });

  test("a module importing another module's index.ts is allowed", () => {
    expect(lintAs('module-imports-another-modules-index.ts', 'server/src/modules/scim/fixture.ts')).toEqual([]);
  });
});
