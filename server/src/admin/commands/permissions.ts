// permission grant | revoke | show: a member's permission flags in a tenant (the API only reads them).
import type { Command } from '@commander-js/extra-typings';
import { allFlagNames, changeMemberPermissions, memberFlags } from '../../modules/users';
import { tenantName, type AdminIo } from '../admin-io';
import { email, positiveInt } from '../parse';

export function permissionCommands(program: Command, io: AdminIo): void {
  const permission = program
    .command('permission')
    .description("A member's permission flags in a tenant, such as cec.maySend (may send external communication)");

  for (const [name, on] of [
    ['grant', true],
    ['revoke', false],
  ] as const)
    permission
      .command(name)
      .description(`Turn flags ${on ? 'on' : 'off'} for a member; takes effect on their next request`)
      .argument(
        '<flags...>',
        `area.flag or area.* (for example cec.maySend, checklists.*); \`permission show\` lists them`,
      )
      .requiredOption('--tenant <id>', 'the tenant', positiveInt())
      .requiredOption('--user <email>', "the member's email address", email)
      .action(async (flags, options) => {
        const services = await io.services();
        const organisation = await tenantName(services, options.tenant);
        const changed = await changeMemberPermissions(services.db, {
          tenantId: options.tenant,
          email: options.user,
          flags,
          on,
          region: services.config.region,
        });
        io.out(
          changed.length
            ? `${on ? 'Granted' : 'Revoked'} for ${options.user} at ${organisation}: ${changed.join(', ')}.\n`
            : `Nothing changed: ${options.user} at ${organisation} ${on ? 'already has' : 'has none of'} ${flags.join(', ')}.\n`,
        );
      });

  permission
    .command('show')
    .description("List a member's flags that are on (or every flag known, without --user)")
    .option('--tenant <id>', 'the tenant', positiveInt())
    .option('--user <email>', "the member's email address", email)
    .action(async (options) => {
      if (options.user === undefined || options.tenant === undefined)
        return void io.out(
          `Permission flags:\n${allFlagNames()
            .map((n) => `  ${n}\n`)
            .join('')}`,
        );
      const services = await io.services();
      const organisation = await tenantName(services, options.tenant);
      const on = [...(await memberFlags(services.db, options.tenant, options.user))]
        .filter(([, v]) => v)
        .map(([k]) => k);
      io.out(`${options.user} at ${organisation}: ${on.length ? on.join(', ') : 'no flags'}\n`);
    });
}
