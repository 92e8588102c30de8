// SQL of external communication. Every query of tenant data carries the tenant predicate.
import { sql, type Insertable, type Kysely } from 'kysely';
import type { Db } from '../../db/database';
import type { CecMessagesTable, Database } from '../../db/types';
import { containsPattern, type PageParams } from '../tenants/paging';

export async function selectCecGroups(db: Db, tenantId: number, page: PageParams) {
  return db
    .selectFrom('cec_groups as g')
    .where('g.tenant_id', '=', tenantId)
    .select((eb) => [
      'g.id',
      'g.name',
      eb.selectFrom('cec_group_members as m').whereRef('m.group_id', '=', 'g.id').select(eb.fn.countAll<number>().as('n')).as('member_count'),
    ])
    .orderBy(sql`lower(g.name)`)
    .orderBy('g.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countCecGroups(db: Db, tenantId: number): Promise<number> {
  const row = await db.selectFrom('cec_groups').select((eb) => eb.fn.countAll<number>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function selectCecTemplates(db: Db, tenantId: number, page: PageParams) {
  return db
    .selectFrom('cec_templates')
    .select(['id', 'name', 'content'])
    .where('tenant_id', '=', tenantId)
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countCecTemplates(db: Db, tenantId: number): Promise<number> {
  const row = await db.selectFrom('cec_templates').select((eb) => eb.fn.countAll<number>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findSenderSettings(db: Db, tenantId: number) {
  return db.selectFrom('cec_sender_settings').select(['email_sender_name', 'sms_sender_id']).where('tenant_id', '=', tenantId).executeTakeFirst();
}

export async function selectTenantCecGroups(db: Db, tenantId: number, groupIds: number[]) {
  return db.selectFrom('cec_groups').select(['id', 'name']).where('tenant_id', '=', tenantId).where('id', 'in', groupIds).execute();
}

/** A message as sent: the row, with its sender and time always given (recipients are resolved later, by the job). */
export type NewCecMessage = Omit<Insertable<CecMessagesTable>, 'id' | 'recipients_resolved_at'> & { sender_user_id: number; sent_at: Date };

export async function insertCecMessage(trx: Kysely<Database>, message: NewCecMessage, groups: { id: number; name: string }[]) {
  const row = await trx.insertInto('cec_messages').values(message).returning(['id', 'sent_at']).executeTakeFirstOrThrow();
  await trx
    .insertInto('cec_message_groups')
    .values(groups.map((g) => ({ message_id: row.id, group_id: g.id, group_name: g.name })))
    .execute();
  return row;
}

export interface MessageFilters {
  contentContains?: string;
  groupIds?: number[];
}

function messagesOfTenant(db: Db, tenantId: number, filters: MessageFilters) {
  let query = db.selectFrom('cec_messages as m').where('m.tenant_id', '=', tenantId);
  if (filters.contentContains !== undefined) query = query.where(sql<boolean>`m.content ilike ${containsPattern(filters.contentContains)} escape '\\'`);
  const groupIds = filters.groupIds;
  if (groupIds !== undefined) {
    query = query.where((eb) =>
      eb.exists(eb.selectFrom('cec_message_groups as mg').select('mg.group_id').whereRef('mg.message_id', '=', 'm.id').where('mg.group_id', 'in', groupIds)),
    );
  }
  return query;
}

const messageColumns = [
  'm.id',
  'm.content',
  'm.is_email',
  'm.is_sms',
  'm.has_voice_call',
  'm.has_confirmation_link',
  'm.sent_at',
  'u.name as sender_name',
] as const;

export async function selectCecMessages(db: Db, tenantId: number, filters: MessageFilters, page: PageParams) {
  return messagesOfTenant(db, tenantId, filters)
    .leftJoin('users as u', 'u.id', 'm.sender_user_id')
    .select(messageColumns)
    .orderBy('m.sent_at', 'desc')
    .orderBy('m.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export type CecMessageRow = Awaited<ReturnType<typeof selectCecMessages>>[number];

export async function countCecMessages(db: Db, tenantId: number, filters: MessageFilters): Promise<number> {
  const row = await messagesOfTenant(db, tenantId, filters).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findCecMessage(db: Db, tenantId: number, messageId: number): Promise<CecMessageRow | undefined> {
  return db
    .selectFrom('cec_messages as m')
    .leftJoin('users as u', 'u.id', 'm.sender_user_id')
    .select(messageColumns)
    .where('m.tenant_id', '=', tenantId)
    .where('m.id', '=', messageId)
    .executeTakeFirst();
}

export async function selectMessageGroups(db: Db, messageIds: number[]) {
  if (messageIds.length === 0) return [];
  return db
    .selectFrom('cec_message_groups')
    .select(['message_id', 'group_id as id', 'group_name as name'])
    .where('message_id', 'in', messageIds)
    .orderBy(sql`lower(group_name)`)
    .orderBy('group_id')
    .execute();
}

export async function selectRecipients(db: Db, messageId: number, page: PageParams) {
  return db
    .selectFrom('cec_message_recipients')
    .select(['id', 'name', 'title', 'group_ids'])
    .where('message_id', '=', messageId)
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countRecipients(db: Db, messageId: number): Promise<number> {
  const row = await db.selectFrom('cec_message_recipients').select((eb) => eb.fn.countAll<number>().as('n')).where('message_id', '=', messageId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function selectRecipientDispatches(db: Db, messageId: number, recipientIds: number[]) {
  if (recipientIds.length === 0) return [];
  return db
    .selectFrom('dispatches')
    .select(['recipient_id', 'channel', 'sent_to', 'status', 'read_at'])
    .where('source', '=', 'cec')
    .where('message_id', '=', messageId)
    .where('recipient_id', 'in', recipientIds)
    .where('channel', 'in', ['email', 'sms'])
    .execute();
}
