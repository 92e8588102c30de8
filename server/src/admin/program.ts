// The operator tool: one entry point (`npm run admin -- <command>`), for what the API deliberately does not
// expose. Every command checks its input before it touches the database and fails with one line that says what
// to do, never a stack trace; the exit code is 0 on success, 1 on an error, as commander sets it for usage errors.
import { Command, CommanderError } from '@commander-js/extra-typings';
import { ConfigError } from '../config';
import { DataDirInUseError } from '../db/data-dir-lock';
import { ApiError } from '../errors';
import { SetupRefused } from '../modules/external-communication';
import { GroupChangeRefused } from '../modules/groups';
import { PermissionChangeRefused } from '../modules/users';
import { AdminError } from './admin-error';
import type { AdminIo } from './admin-io';
import { cecCeilingCommands } from './commands/cec-ceiling';
import { coalertCodeCommands } from './commands/coalert-codes';
import { externalCommunicationCommands } from './commands/external-communication';
import { groupCommands } from './commands/groups';
import { permissionCommands } from './commands/permissions';
import { scimKeyCommands } from './commands/scim-keys';
import { securityEventCommands } from './commands/security-events';
import { senderSettingsCommands } from './commands/sender-settings';
import { ssoCommands } from './commands/sso';
import { tenantCommands } from './commands/tenants';
import { userCommands } from './commands/users';

export function adminProgram(io: AdminIo): Command {
  const program = new Command('admin')
    .description(
      'Operator tool of a region of the core API: reads the same environment as the server (DATABASE_URL or DATA_DIR, SECRET_KEY, …).',
    )
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .showHelpAfterError('(add --help for usage)')
    .helpCommand(true)
    .addHelpText(
      'after',
      `
Examples:
  npm run admin -- tenant create --name "Demo School" --website https://school.example
  npm run admin -- user invite --tenant 3 --email ann@school.example --name "Ann Berg" --language sv
  npm run admin -- coalert-code issue --user guard@school.example --usage-limit 50 --expires-in-days 30
  npm run admin -- sender-settings set --tenant 3 --email-name "Demo School" --sms-sender DemoSchool
  npm run admin -- sso oidc --tenant 3 --issuer https://idp.example … --client-secret-file - < secret.txt
  npm run admin -- scim-key create --tenant 3 --name "Entra ID provisioning"
  npm run admin -- permission grant --tenant 3 --user ann@school.example cec.maySend
  npm run admin -- group create --tenant 3 --name "Crisis team" --function checklists --function im_ok
  npm run admin -- cec-group create --tenant 3 --name "Parents"
  npm run admin -- recipient import --tenant 3 --group 1 --file parents.csv --dry-run
  npm run admin -- template create --tenant 3 --name "Evacuation" --content-file evacuation.txt
  npm run admin -- cec-ceiling lift --tenant 3 --reason "Fire at the north school"
  npm run admin -- security-events export --tenant 3 --since 2026-11-01 > events.jsonl
  npm run admin -- <command> --help     every option of a command

With the embedded database (no DATABASE_URL), stop the region first: its data directory has one user at a time.`,
    );
  tenantCommands(program, io);
  userCommands(program, io);
  coalertCodeCommands(program, io);
  senderSettingsCommands(program, io);
  ssoCommands(program, io);
  scimKeyCommands(program, io);
  permissionCommands(program, io);
  groupCommands(program, io);
  externalCommunicationCommands(program, io);
  cecCeilingCommands(program, io);
  securityEventCommands(program, io);
  return program;
}

/** Runs one command line; answers the exit code. */
export async function runAdmin(argv: string[], io: AdminIo): Promise<number> {
  try {
    await adminProgram(io).parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    // Usage errors and help were printed by commander already.
    if (error instanceof CommanderError) return error.exitCode;
    io.err(`error: ${explain(error)}\n`);
    return 1;
  }
}

function explain(error: unknown): string {
  if (error instanceof AdminError || error instanceof DataDirInUseError) return error.message;
  if (error instanceof ApiError || error instanceof SetupRefused) return error.message;
  if (error instanceof PermissionChangeRefused || error instanceof GroupChangeRefused) return error.message;
  if (error instanceof ConfigError) return error.message;
  const code = (error as { code?: string })?.code;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND') return `cannot reach the database (${code}): check DATABASE_URL`;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code))
    return `the database refused the change (${code}): ${(error as Error).message}`;
  return error instanceof Error ? error.message : String(error);
}
