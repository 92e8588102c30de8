// coalert-code issue | list | revoke
import type { Command } from '@commander-js/extra-typings';
import { issueCoalertCode, listCoalertCodes, revokeCoalertCode } from '../../modules/coalert-codes';
import type { AdminIo } from '../admin-io';
import { email, positiveInt, text } from '../parse';

const day = (at: Date | null) => (at ? at.toISOString().slice(0, 16).replace('T', ' ') + ' UTC' : 'never');

export function coalertCodeCommands(program: Command, io: AdminIo): void {
  const codes = program
    .command('coalert-code')
    .description('coAlert codes: sign in as a user with a code, a limited number of times');

  codes
    .command('issue')
    .description('Issue a code for a user; the code is printed once and cannot be shown again')
    .requiredOption('--user <email>', 'the user the code signs in as', email)
    .requiredOption('--usage-limit <n>', 'how many sign-ins the code allows (1-100000)', positiveInt(100_000))
    .option('--expires-in-days <n>', 'days until the code stops working (1-3650; default: never)', positiveInt(3_650))
    .option('--label <text>', 'a note for the list, such as where the code is posted', text(1, 200))
    .action(async (options) => {
      const issued = await issueCoalertCode(await io.services(), {
        userEmail: options.user,
        usageLimit: options.usageLimit,
        expiresInDays: options.expiresInDays,
        label: options.label,
      });
      io.out(`coAlert code ${issued.id} for ${issued.userEmail}: ${issued.code}\n`);
      io.out(
        `  ${issued.usageLimit} sign-in(s), expires ${day(issued.expiresAt)}. Keep the code now: it is stored only as a hash.\n`,
      );
    });

  codes
    .command('list')
    .description('List codes (never the codes themselves): id, user, uses, expiry, label')
    .option('--user <email>', "only this user's codes", email)
    .action(async (options) => {
      const rows = await listCoalertCodes(await io.services(), { userEmail: options.user });
      if (rows.length === 0) return void io.out('No coAlert codes.\n');
      for (const r of rows)
        io.out(
          `${r.id}\t${r.email}\t${r.usage_count}/${r.usage_limit} used\texpires ${day(r.expires_at)}\t${r.label}\n`,
        );
    });

  codes
    .command('revoke')
    .description('Make a code stop working at once')
    .argument('<id>', "the code's id (from issue or list)", positiveInt())
    .action(async (id) => {
      await revokeCoalertCode(await io.services(), id);
      io.out(`coAlert code ${id} revoked.\n`);
    });
}
