// Test data and tools for the crisis-communication suites: a clock tests move by hand, direct inserts of
// external communication and organisation rows, and channels that fail on purpose.
import { buildPermissions } from '../../src/modules/users/permission-flags';
import type { Channel, ChannelName, OutgoingMessage } from '../../src/notify/channels';
import type { Services } from '../../src/services';

export interface FakeClock {
  now: () => Date;
  set(at: Date | string): void;
  advance(ms: number): void;
}

export function fakeClock(start = '2026-11-22T08:00:00.000Z'): FakeClock {
  let t = new Date(start).getTime();
  return {
    now: () => new Date(t),
    set: (at) => void (t = new Date(at).getTime()),
    advance: (ms) => void (t += ms),
  };
}

/** Permissions with only the named flags (`area.flag`) granted. */
export const only = (...grants: string[]) => buildPermissions(false, grants);

export async function insertSenderSettings(
  services: Services,
  tenantId: number,
  email = 'Demo School',
  sms = 'DemoSchool',
): Promise<void> {
  await services.db
    .insertInto('cec_sender_settings')
    .values({ tenant_id: tenantId, email_sender_name: email, sms_sender_id: sms })
    .execute();
}

export interface ContactSpec {
  name: string;
  title?: string | null;
  email?: string | null;
  phone?: string | null;
}

export async function insertContact(services: Services, tenantId: number, contact: ContactSpec): Promise<number> {
  const { id } = await services.db
    .insertInto('cec_contacts')
    .values({
      tenant_id: tenantId,
      name: contact.name,
      title: contact.title ?? null,
      email: contact.email ?? null,
      phone: contact.phone ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** A CEC group with the given members (contact ids, or specs for new contacts). */
export async function insertExternalGroup(
  services: Services,
  tenantId: number,
  name: string,
  members: (number | ContactSpec)[] = [],
): Promise<{ id: number; contactIds: number[] }> {
  const { id } = await services.db
    .insertInto('cec_groups')
    .values({ tenant_id: tenantId, name })
    .returning('id')
    .executeTakeFirstOrThrow();
  const contactIds: number[] = [];
  for (const member of members) {
    const contactId = typeof member === 'number' ? member : await insertContact(services, tenantId, member);
    await services.db
      .insertInto('cec_group_members')
      .values({ group_id: id, contact_id: contactId, tenant_id: tenantId })
      .execute();
    contactIds.push(contactId);
  }
  return { id, contactIds };
}

export async function insertTemplate(
  services: Services,
  tenantId: number,
  name: string,
  content: string,
): Promise<number> {
  const { id } = await services.db
    .insertInto('cec_templates')
    .values({ tenant_id: tenantId, name, content })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** An organisation group of the tenant with the given members (users already members of the tenant). */
export async function insertGroup(
  services: Services,
  tenantId: number,
  name: string,
  userIds: number[],
): Promise<number> {
  const account = await services.db
    .insertInto('accounts')
    .values({ tenant_id: tenantId, name: `${name} account` })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { id } = await services.db
    .insertInto('groups')
    .values({ tenant_id: tenantId, account_id: account.id, name })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const userId of userIds)
    await services.db
      .insertInto('group_members')
      .values({ group_id: id, user_id: userId, tenant_id: tenantId })
      .execute();
  return id;
}

export async function outbox(services: Services, channel?: ChannelName) {
  let query = services.db.selectFrom('outbox').select(['channel', 'recipient', 'subject', 'body']).orderBy('id');
  if (channel) query = query.where('channel', '=', channel);
  return query.execute();
}

export async function dispatchesOf(services: Services, source: 'cec' | 'alarm', messageId: number) {
  return services.db
    .selectFrom('dispatches')
    .select([
      'id',
      'recipient_id',
      'channel',
      'sent_to',
      'status',
      'attempts',
      'next_attempt_at',
      'read_at',
      'last_error',
      'key_nonce',
    ])
    .where('source', '=', source)
    .where('message_id', '=', messageId)
    .orderBy('id')
    .execute();
}

/** A channel that records what it is given and fails the first `failures` sends (or every send to `failFor`). */
export class ScriptedChannel implements Channel {
  readonly sent: OutgoingMessage[] = [];
  calls = 0;
  constructor(
    readonly name: ChannelName,
    public failures = 0,
    private readonly failFor: (message: OutgoingMessage) => boolean = () => false,
  ) {}
  async send(message: OutgoingMessage): Promise<void> {
    this.calls++;
    if (this.failures > 0 || this.failFor(message)) {
      if (this.failures > 0) this.failures--;
      throw new Error(`${this.name} provider unavailable`);
    }
    this.sent.push(message);
  }
}

/** Replaces the notifier's channels with scripted ones (the returned map), for one test file's services. */
export function scriptChannels(
  services: Services,
  failures: Partial<Record<ChannelName, number>> = {},
): Record<ChannelName, ScriptedChannel> {
  const channels = {
    email: new ScriptedChannel('email', failures.email ?? 0),
    sms: new ScriptedChannel('sms', failures.sms ?? 0),
    voice: new ScriptedChannel('voice', failures.voice ?? 0),
    push: new ScriptedChannel('push', failures.push ?? 0),
  };
  Object.assign(services.notifier, channels);
  return channels;
}
