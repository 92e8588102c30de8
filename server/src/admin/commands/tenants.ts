// tenant create | tenant list
import type { Command } from '@commander-js/extra-typings';
import type { AdminIo } from '../admin-io';
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
      const id = await services.db.transaction().execute(async (trx) => {
        const created = await trx
          .insertInto('tenants')
          .values({
            name: options.name,
            website_url: options.website,
            logo_url: options.logoUrl ?? `${options.website.replace(/\/$/, '')}/logo.png`,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx.insertInto('accounts').values({ tenant_id: created.id, name: options.name }).execute();
        return created.id;
      });
      io.out(`Tenant ${id} created: ${options.name}\n`);
    });

  tenant
    .command('list')
    .description('List the tenants with their ids and number of members')
    .action(async () => {
      const services = await io.services();
      const rows = await services.db
        .selectFrom('tenants as t')
        .leftJoin('memberships as m', 'm.tenant_id', 't.id')
        .select(['t.id', 't.name', 't.website_url', (eb) => eb.fn.count<string>('m.user_id').as('members')])
        .groupBy(['t.id', 't.name', 't.website_url'])
        .orderBy('t.id')
        .execute();
      if (rows.length === 0) return void io.out('No tenants yet.\n');
      for (const r of rows) io.out(`${r.id}\t${r.name}\t${r.website_url}\t${r.members} member(s)\n`);
    });
}
