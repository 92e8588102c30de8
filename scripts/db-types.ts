// Writes server/src/db/types.ts, the row types every Kysely statement is checked against, from the schema the
// migrations make: every migration runs on a fresh in-memory PGlite, kysely-codegen reads the catalogue back and
// prints one interface per table (sorted by name), and prettier formats it with the repository's settings, so the
// same migrations always give the same bytes. With --check it writes nothing and fails when the file differs (run
// by `npm run check:generated`, as generated/ is). --db-dir names another copy of server/src/db (the test that
// proves the check fails runs it on a copy with one more migration).
//
// Where the code relies on a narrower type than the column's SQL type (the values a check constraint allows, the
// shape of a JSON column, int8 read as a number), the column is overridden below with a type from
// db/column-types.ts or Kysely's own column types; everything else is what the database says.
//
// Usage: node --import tsx scripts/db-types.ts [--check] [--db-dir DIR]
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(__dirname, '..');

/** Columns whose TypeScript type is narrower than their SQL type (table.column → type). */
const overrides: Record<string, string> = {
  // Check constraints: the values a text column may hold.
  'api_keys.scope': 'Generated<ApiKeyScope>',
  'contacts.type': 'ContactType',
  'dispatches.channel': 'DispatchChannel',
  'dispatches.source': 'DispatchSource',
  'dispatches.status': 'Generated<DispatchStatus>',
  'group_functions.function': 'GroupFunction',
  'group_name_bigrams.type': 'GroupType',
  'groups.type': 'Generated<GroupType>',
  'jobs.status': 'Generated<JobStatus>',
  'password_tokens.kind': 'PasswordTokenKind',
  'personal_alarm_changes.action': 'PersonalAlarmAction',
  'personal_alarm_messages.kind': 'PersonalAlarmMessageKind',
  'push_tokens.type': 'PushTokenType',
  'security_events.kind': 'SecurityEventKind',
  'security_events.outcome': 'SecurityEventOutcome',
  'security_events.actor_type': 'SecurityEventActor',
  'sso_challenges.kind': 'SsoKind',
  'sso_domains.kind': 'SsoKind',
  // JSON columns: read as their shape, written as JSON text.
  'jobs.payload': 'JSONColumnType<JobPayload>',
  'memberships.permissions': 'JSONColumnType<MembershipPermissions>',
  'personal_alarm_changes.changes': 'JSONColumnType<PersonalAlarmChangeSet>',
  'sessions.factors': 'JSONColumnType<SessionFactors>',
  'security_events.details': 'JSONColumnType<SecurityEventDetails, string | undefined, string>',
  // A stored generated column (lower(name)): never written, never null since name is not null.
  'groups.name_folded': 'GeneratedAlways<string>',
  // bigint[]: the int8 parser (db/database.ts) does not reach array elements, which may arrive as text.
  'cec_message_recipients.group_ids': 'ColumnType<(number | string)[], number[], number[]>',
};

/** Where the overrides' types come from. */
const customImports: Record<string, string> = Object.fromEntries([
  ...['ColumnType', 'GeneratedAlways', 'JSONColumnType'].map((name) => [name, 'kysely']),
  ...[
    'ApiKeyScope',
    'ContactType',
    'DispatchChannel',
    'DispatchSource',
    'DispatchStatus',
    'GroupFunction',
    'GroupType',
    'JobPayload',
    'JobStatus',
    'MembershipPermissions',
    'PasswordTokenKind',
    'PersonalAlarmAction',
    'PersonalAlarmChangeSet',
    'PersonalAlarmMessageKind',
    'PushTokenType',
    'SecurityEventActor',
    'SecurityEventDetails',
    'SecurityEventKind',
    'SecurityEventOutcome',
    'SessionFactors',
    'SsoKind',
  ].map((name) => [name, './column-types']),
]);

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const dirFlag = process.argv.indexOf('--db-dir');
  const dbDir = dirFlag > 0 ? resolve(process.argv[dirFlag + 1]) : join(root, 'server', 'src', 'db');
  const target = join(dbDir, 'types.ts');
  const text = await generateTypes(dbDir, target);
  const name = relative(root, target);
  if (check) {
    let current = '';
    try {
      current = readFileSync(target, 'utf8');
    } catch {
      // a missing file differs
    }
    if (current !== text) {
      console.error(`${name} is out of step with the migrations. Run \`npm run generate\` and commit.`);
      process.exit(1);
    }
    console.log(`${name} is up to date with the migrations`);
  } else {
    writeFileSync(target, text);
    console.log(`${name}: written from the migrations`);
  }
}

async function generateTypes(dbDir: string, target: string): Promise<string> {
  // The copy's own modules: its migrations, and the database opener the server uses (embedded PGlite in memory).
  const { openDatabase } = require(join(dbDir, 'database.ts')) as typeof import('../server/src/db/database');
  const { migrateToLatest } = require(join(dbDir, 'migrate.ts')) as typeof import('../server/src/db/migrate');
  const { generate, PostgresDialect } = require('kysely-codegen') as typeof import('kysely-codegen');
  const prettier = require('prettier') as typeof import('prettier');
  const handle = await openDatabase({});
  try {
    await migrateToLatest(handle.db);
    const printed = await generate({
      db: handle.db,
      dialect: new PostgresDialect(),
      overrides: { columns: overrides },
      customImports,
      typeMapping: { int8: 'number' },
      typeOnlyImports: true,
      skipAutogeneratedFileComment: true,
    });
    const options = await prettier.resolveConfig(target);
    return await prettier.format(header + printed, { ...options, filepath: target });
  } finally {
    await handle.close();
  }
}

const header = '// Generated from the migrations by `npm run generate` (scripts/db-types.ts). Do not edit by hand.\n';

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
