// group create | list | add-member: groups and their members where the tenant's directory (SCIM) does not
// provide them.
import { InvalidArgumentError, type Command } from '@commander-js/extra-typings';
import { addGroupMember, createGroup, groupFunctions, operatorGroupTypes, tenantGroups } from '../../modules/groups';
import { tenantName, type AdminIo } from '../admin-io';
import { email, positiveInt, text } from '../parse';

const oneOf =
  <T extends string>(values: readonly T[]) =>
  (value: string): T => {
    if (!(values as readonly string[]).includes(value))
      throw new InvalidArgumentError(`Must be one of ${values.join(', ')}.`);
    return value as T;
  };

export function groupCommands(program: Command, io: AdminIo): void {
  const group = program.command('group').description("Groups of a tenant's members (not external communication)");

  group
    .command('create')
    .description('Create a group; prints its id')
    .requiredOption('--tenant <id>', 'the tenant', positiveInt())
    .requiredOption('--name <name>', "the group's name (1-200 characters)", text(1, 200))
    .option('--type <type>', `${operatorGroupTypes.join(', ')}`, oneOf(operatorGroupTypes), 'default')
    .option(
      '--function <name>',
      `a function of the group, once per function: ${groupFunctions.join(', ')}`,
      (value: string, previous: (typeof groupFunctions)[number][]) => [...previous, oneOf(groupFunctions)(value)],
      [] as (typeof groupFunctions)[number][],
    )
    .action(async (options) => {
      const services = await io.services();
      await tenantName(services, options.tenant);
      const id = await createGroup(services.db, {
        tenantId: options.tenant,
        name: options.name,
        type: options.type,
        functions: options.function,
      });
      io.out(`Group ${id} created: ${options.name} (${options.type})\n`);
    });

  group
    .command('list')
    .description("List the tenant's groups: id, name, type, members, and whether its directory manages it")
    .requiredOption('--tenant <id>', 'the tenant', positiveInt())
    .action(async (options) => {
      const services = await io.services();
      await tenantName(services, options.tenant);
      const rows = await tenantGroups(services.db, options.tenant);
      if (rows.length === 0) return void io.out('No groups.\n');
      for (const r of rows)
        io.out(
          `${r.id}\t${r.name}\t${r.type}\t${r.members_count} member(s)${r.from_directory ? '\tfrom the directory' : ''}\n`,
        );
    });

  group
    .command('add-member')
    .description('Add a member of the tenant to a group (or change whether they administer it)')
    .argument('<id>', "the group's id", positiveInt())
    .requiredOption('--tenant <id>', 'the tenant', positiveInt())
    .requiredOption('--user <email>', "the member's email address", email)
    .option('--admin', 'as an administrator of the group')
    .action(async (id, options) => {
      const services = await io.services();
      await tenantName(services, options.tenant);
      const outcome = await addGroupMember(services.db, {
        tenantId: options.tenant,
        groupId: id,
        email: options.user,
        admin: options.admin === true,
      });
      const role = options.admin ? 'an administrator' : 'a member';
      io.out(
        outcome === 'unchanged'
          ? `${options.user} is already ${role} of group ${id}.\n`
          : `${options.user} is now ${role} of group ${id}.\n`,
      );
    });
}
