// tenant create | tenant list
import type { Command } from '@commander-js/extra-typings';
import type { AdminIo } from '../admin-io';
import { insertTenantWithAccount, selectTenantsWithMemberCounts } from '../admin.repository';
import { text, url } from '../parse';

export function tenantCommands(program: Command, io: AdminIo): void {
  const tenant = program.command('tenant').description('Organisations (tenants) of this region');

  tenant
    .command('create')
    .description('Create a tenant with its first account; prints its id')
    .requiredOption('--name <name>', "the organisation's name (1-200 characters)", text(1, 200))
    .requiredOption('--website <url>', "the organisation's website", url())
    .option('--logo-url <url>', 'its logo (default: <website>/logo.png)', url())
    .action(async (options) => {
      const services = await io.services();
      const id = await insertTenantWithAccount(services.db, {
        name: options.name,
        websiteUrl: options.website,
        logoUrl: options.logoUrl ?? `${options.website.replace(/\/$/, '')}/logo.png`,
      });
      io.out(`Tenant ${id} created: ${options.name}\n`);
    });

  tenant
    .command('list')
    .description('List the tenants with their ids and number of members')
    .action(async () => {
      const services = await io.services();
      const rows = await selectTenantsWithMemberCounts(services.db);
      if (rows.length === 0) return void io.out('No tenants yet.\n');
      for (const r of rows) io.out(`${r.id}\t${r.name}\t${r.website_url}\t${r.members} member(s)\n`);
    });
}
