// cec-ceiling lift
import type { Command } from '@commander-js/extra-typings';
import { recordCeilingLift } from '../../modules/external-communication';
import { tenantName, type AdminIo } from '../admin-io';
import { positiveInt, text } from '../parse';

export function cecCeilingCommands(program: Command, io: AdminIo): void {
  const ceiling = program
    .command('cec-ceiling')
    .description("A tenant's ceiling of external messages an hour (over all its senders, and each sender's own quota)");

  ceiling
    .command('lift')
    .description('Lift it for the next hour: no quota refuses an external message of the tenant until then (recorded)')
    .requiredOption('--tenant <id>', 'the tenant', positiveInt())
    .requiredOption('--reason <text>', 'why (kept with the record of the lift; 1-500 characters)', text(1, 500))
    .action(async (options) => {
      const services = await io.services();
      const organisation = await tenantName(services, options.tenant);
      const lift = await recordCeilingLift(
        services,
        options.tenant,
        { userId: null, label: 'operator tool' },
        options.reason,
      );
      io.out(
        `${organisation}: the ceiling of external messages is lifted until ${lift.liftedUntil} (lift ${lift.id}).\n`,
      );
    });
}
