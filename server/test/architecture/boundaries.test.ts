// The module boundaries are lint rules (eslint.config.mjs, docs/architecture.md). A rule that silently stops
// matching (a renamed folder, a resolver that no longer resolves) would let every wrong import through, so these
// tests lint deliberately wrong imports, placed as if they were source files, and expect the rule to report them.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const eslint = join(root, 'node_modules', 'eslint', 'bin', 'eslint.js');

interface LintMessage {
  ruleId: string | null;
  message: string;
}

/** Lints a fixture's text as if it lived at `asFile` (relative to the repository) and answers its messages. */
function lintAs(fixture: string, asFile: string): LintMessage[] {
  const text = readFileSync(join(__dirname, 'fixtures', fixture), 'utf8');
  const run = spawnSync(process.execPath, [eslint, '--format', 'json', '--stdin', '--stdin-filename', asFile], {
    cwd: root,
    input: text,
    encoding: 'utf8',
  });
  const [result] = JSON.parse(run.stdout) as { messages: LintMessage[] }[];
  return result.messages;
}

const boundary = (messages: LintMessage[]) => messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths');

describe('module boundaries (lint)', () => {
  test('http/ importing a module is reported', () => {
    expect(boundary(lintAs('http-imports-a-module.ts', 'server/src/http/fixture.ts')).map((m) => m.message)).toEqual([
      expect.stringContaining('Infrastructure and the shared kernel import no module'),
    ]);
  }, 60_000);

  test("a module importing another module's repository is reported", () => {
    expect(
      boundary(lintAs('module-imports-another-modules-repository.ts', 'server/src/modules/scim/fixture.ts')).map(
        (m) => m.message,
      ),
    ).toEqual([expect.stringContaining('only through its index.ts')]);
  }, 60_000);

  test("a module's index.ts re-exporting its repository is reported; re-exporting a service is not", () => {
    expect(
      boundary(lintAs('face-re-exports-its-repository.ts', 'server/src/modules/sessions/index.ts')).map(
        (m) => m.message,
      ),
    ).toEqual([expect.stringContaining('offers intentions'), expect.stringContaining('offers intentions')]);
    expect(boundary(lintAs('face-re-exports-its-repository.ts', 'server/src/modules/sessions/lockouts.ts'))).toEqual(
      [],
    );
  }, 60_000);

  test('a cycle between modules is reported', () => {
    const cycles = lintAs('sessions-imports-sso.ts', 'server/src/modules/sessions/index.ts').filter(
      (m) => m.ruleId === 'local/no-import-cycle',
    );
    expect(cycles).toHaveLength(1);
  }, 60_000);

  test('an import up the layers is reported', () => {
    expect(boundary(lintAs('db-imports-messages.ts', 'server/src/db/fixture.ts')).map((m) => m.message)).toEqual([
      expect.stringContaining('Upward import: db/ imports only the layers below it'),
    ]);
  }, 60_000);

  test('a type-only import up the layers is reported', () => {
    expect(
      boundary(lintAs('security-imports-services-type.ts', 'server/src/security/fixture.ts')).map((m) => m.message),
    ).toEqual([expect.stringContaining('Upward import: security/ imports only the layers below it')]);
  }, 60_000);

  test('a module importing the boot-time Services object (services.ts) is reported', () => {
    expect(
      boundary(lintAs('module-imports-services-type.ts', 'server/src/modules/meeting-rooms/fixture.ts')).map(
        (m) => m.message,
      ),
    ).toEqual([expect.stringContaining('Modules do not import services.ts')]);
  }, 60_000);

  test('a cycle closed by a type-only import is reported', () => {
    const messages = lintAs('prepared-imports-database-type.ts', 'server/src/db/prepared.ts');
    expect(messages.filter((m) => m.ruleId === 'local/no-import-cycle').map((m) => m.message)).toEqual([
      'Import cycle (type-only imports count): server/src/db/prepared.ts → server/src/db/database.ts → server/src/db/prepared.ts',
    ]);
  }, 60_000);

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
  }, 60_000);

  test('a statement built on a database handle outside a repository is reported', () => {
    expect(
      sqlRule(lintAs('service-builds-a-query.ts', 'server/src/jobs/fixture.ts')).map((m) => [m.ruleId, m.message]),
    ).toEqual([['no-restricted-syntax', expect.stringContaining('SQL lives in repositories')]]);
  }, 60_000);

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
  }, 60_000);

  test('Kysely and statements inside a repository or db/ are allowed', () => {
    expect(sqlRule(lintAs('service-imports-kysely.ts', 'server/src/modules/users/users.repository.ts'))).toEqual([]);
    expect(sqlRule(lintAs('service-builds-a-query.ts', 'server/src/modules/users/users.repository.ts'))).toEqual([]);
    expect(sqlRule(lintAs('service-builds-a-query.ts', 'server/src/db/fixture.ts'))).toEqual([]);
  }, 60_000);

  test("a module importing another module's index.ts is allowed", () => {
    expect(lintAs('module-imports-another-modules-index.ts', 'server/src/modules/scim/fixture.ts')).toEqual([]);
  }, 60_000);
});
