// security-events list | export: the region's security events, every tenant's or one tenant's (as its administrators
// see them) or one account's; `list` prints the newest as lines, `export` writes every match as JSON lines.
import { InvalidArgumentError, type Command } from '@commander-js/extra-typings';
import {
  allSecurityEvents,
  latestSecurityEvents,
  securityEventKinds,
  type OperatorEventFilter,
  type SecurityEventKind,
} from '../../modules/security-events';
import { tenantName, type AdminIo } from '../admin-io';
import { email, positiveInt } from '../parse';

function kind(value: string, previous: SecurityEventKind[] = []): SecurityEventKind[] {
  if (!(securityEventKinds as readonly string[]).includes(value))
    throw new InvalidArgumentError(`Must be one of ${securityEventKinds.join(', ')}.`);
  return [...previous, value as SecurityEventKind];
}

function instant(value: string): string {
  const at = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(at.getTime()))
    throw new InvalidArgumentError('Must be a date or an instant, such as 2026-11-29 or 2026-11-29T03:00:00Z.');
  return at.toISOString();
}

interface FilterOptions {
  tenant?: number;
  user?: string;
  kind?: SecurityEventKind[];
  since?: string;
  until?: string;
}

async function filterOf(io: AdminIo, options: FilterOptions): Promise<OperatorEventFilter> {
  if (options.tenant !== undefined) await tenantName(await io.services(), options.tenant);
  return {
    tenantId: options.tenant,
    email: options.user,
    kinds: options.kind,
    from: options.since,
    to: options.until,
  };
}

export function securityEventCommands(program: Command, io: AdminIo): void {
  const events = program
    .command('security-events')
    .description('Sign-ins, failures, lockouts, passkeys, passwords, sessions ended, permissions, directory changes');

  events
    .command('list')
    .description('Print the newest events, newest first')
    .option('--tenant <id>', "the tenant's events and its members' account events", positiveInt())
    .option('--user <email>', "one account's events", email)
    .option('--kind <kind>', 'only this kind (repeat for several)', kind)
    .option('--since <instant>', 'at or after this date or instant (UTC)', instant)
    .option('--until <instant>', 'before this date or instant (UTC)', instant)
    .option('--limit <n>', 'how many (1-1000, default 50)', positiveInt(1000), 50)
    .action(async (options) => {
      const services = await io.services();
      const found = await latestSecurityEvents(services.db, await filterOf(io, options), options.limit);
      if (found.length === 0) return void io.out('No security events match.\n');
      for (const e of found) {
        const who = e.userId === null ? 'no account' : `user ${e.userId}`;
        const by = e.actor.type === 'self' ? '' : ` by ${e.actor.type}${e.actor.userId ? ` ${e.actor.userId}` : ''}`;
        const where = e.tenantId === null ? '' : ` in tenant ${e.tenantId}`;
        const from = e.client.network ? ` from ${e.client.network}` : '';
        const details = Object.keys(e.details).length ? ` ${JSON.stringify(e.details)}` : '';
        io.out(`${e.at}  ${e.kind} (${e.outcome})  ${who}${where}${by}${from}${details}\n`);
      }
    });

  events
    .command('export')
    .description('Write every matching event as JSON lines, oldest first')
    .option('--tenant <id>', "the tenant's events and its members' account events", positiveInt())
    .option('--user <email>', "one account's events", email)
    .option('--kind <kind>', 'only this kind (repeat for several)', kind)
    .option('--since <instant>', 'at or after this date or instant (UTC)', instant)
    .option('--until <instant>', 'before this date or instant (UTC)', instant)
    .action(async (options) => {
      const services = await io.services();
      for await (const e of allSecurityEvents(services.db, await filterOf(io, options)))
        io.out(`${JSON.stringify(e)}\n`);
    });
}
