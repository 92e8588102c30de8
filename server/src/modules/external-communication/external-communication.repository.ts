// SQL of external communication. Every query of tenant data carries the tenant predicate.
import { sql, type Insertable, type Kysely } from 'kysely';
import type { DispatchChannel } from '../../db/column-types';
import type { Db, Executor } from '../../db/database';
import { prepared, type Placeholders } from '../../db/prepared';
import type { DB as Database } from '../../db/types';
import { containsPattern, pageAndTotal, pageRows, type PageParams } from '../../shared/paging';

const externalGroupPage = prepared((db, p: Placeholders<{ tenantId: number; limit: number; offset: number }>) =>
  pageAndTotal(
    db,
    db.selectFrom('cec_groups').where('tenant_id', '=', p.tenantId),
    db
      .selectFrom('cec_groups as g')
      .where('g.tenant_id', '=', p.tenantId)
      .select((eb) => [
        'g.id',
        'g.name',
        eb
          .selectFrom('cec_group_members as m')
          .whereRef('m.group_id', '=', 'g.id')
          .select(eb.fn.countAll<number>().as('n'))
          .as('member_count'),
      ])
      .orderBy(sql`lower(g.name)`)
      .orderBy('g.id')
      .limit(p.limit)
      .offset(p.offset),
  ),
);

/** A page of the tenant's external communication groups by name, with their member counts, and the total. */
export const selectExternalGroups = async (db: Db, tenantId: number, page: PageParams) =>
  pageRows(await externalGroupPage(db, { tenantId, ...page }));

const externalTemplatePage = prepared((db, p: Placeholders<{ tenantId: number; limit: number; offset: number }>) =>
  pageAndTotal(
    db,
    db.selectFrom('cec_templates').where('tenant_id', '=', p.tenantId),
    db
      .selectFrom('cec_templates')
      .select(['id', 'name', 'content'])
      .where('tenant_id', '=', p.tenantId)
      .orderBy(sql`lower(name)`)
      .orderBy('id')
      .limit(p.limit)
      .offset(p.offset),
  ),
);

/** A page of the tenant's templates by name, and the total. */
export const selectExternalTemplates = async (db: Db, tenantId: number, page: PageParams) =>
  pageRows(await externalTemplatePage(db, { tenantId, ...page }));

export async function findSenderSettings(db: Db, tenantId: number) {
  return db
    .selectFrom('cec_sender_settings')
    .select(['email_sender_name', 'sms_sender_id'])
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
}

export async function selectTenantExternalGroups(db: Db, tenantId: number, groupIds: number[]) {
  return db
    .selectFrom('cec_groups')
    .select(['id', 'name'])
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', groupIds)
    .execute();
}

/** A message as sent: the row, with its sender and time always given (recipients are resolved later, by the job). */
export type NewExternalMessage = Omit<Insertable<Database['cec_messages']>, 'id' | 'recipients_resolved_at'> & {
  sender_user_id: number;
  sent_at: Date;
};

export async function insertExternalMessage(
  trx: Kysely<Database>,
  message: NewExternalMessage,
  groups: { id: number; name: string }[],
) {
  const row = await trx
    .insertInto('cec_messages')
    .values(message)
    .returning(['id', 'sent_at'])
    .executeTakeFirstOrThrow();
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

type MessageValues = { tenantId: number; pattern?: string; groupIds?: number[] };

function messagesOfTenant(
  db: Executor,
  p: Placeholders<MessageValues>,
  shape: { byContent: boolean; byGroups: boolean },
) {
  let query = db.selectFrom('cec_messages as m').where('m.tenant_id', '=', p.tenantId);
  if (shape.byContent) query = query.where(sql<boolean>`m.content ilike ${p.pattern} escape '\\'`);
  if (shape.byGroups) {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('cec_message_groups as mg')
          .select('mg.group_id')
          .whereRef('mg.message_id', '=', 'm.id')
          .where(sql<boolean>`mg.group_id = any(${p.groupIds}::bigint[])`),
      ),
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

const messagePage = prepared(
  (
    db,
    p: Placeholders<MessageValues & { limit: number; offset: number }>,
    shape: { byContent: boolean; byGroups: boolean },
  ) =>
    pageAndTotal(
      db,
      messagesOfTenant(db, p, shape),
      messagesOfTenant(db, p, shape)
        .leftJoin('users as u', 'u.id', 'm.sender_user_id')
        .select(messageColumns)
        .orderBy('m.sent_at', 'desc')
        .orderBy('m.id', 'desc')
        .limit(p.limit)
        .offset(p.offset),
    ),
);

/** A page of the tenant's messages, newest first, and the total of those passing the filters. */
export async function selectExternalMessages(db: Db, tenantId: number, filters: MessageFilters, page: PageParams) {
  const pattern = filters.contentContains === undefined ? undefined : containsPattern(filters.contentContains);
  return pageRows(
    await messagePage(
      db,
      { tenantId, pattern, groupIds: filters.groupIds, ...page },
      { byContent: pattern !== undefined, byGroups: filters.groupIds !== undefined },
    ),
  );
}

export type ExternalMessageRow = Awaited<ReturnType<typeof selectExternalMessages>>['rows'][number];

const tenantMessage = prepared((db, p: Placeholders<{ tenantId: number; messageId: number }>) =>
  db
    .selectFrom('cec_messages as m')
    .leftJoin('users as u', 'u.id', 'm.sender_user_id')
    .select(messageColumns)
    .where('m.tenant_id', '=', p.tenantId)
    .where('m.id', '=', p.messageId),
);

export async function findExternalMessage(
  db: Db,
  tenantId: number,
  messageId: number,
): Promise<ExternalMessageRow | undefined> {
  const [row] = await tenantMessage(db, { tenantId, messageId });
  return row;
}

const messageGroups = prepared((db, p: Placeholders<{ messageIds: number[] }>) =>
  db
    .selectFrom('cec_message_groups')
    .select(['message_id', 'group_id as id', 'group_name as name'])
    .where(sql<boolean>`message_id = any(${p.messageIds}::bigint[])`)
    .orderBy(sql`lower(group_name)`)
    .orderBy('group_id'),
);

export async function selectMessageGroups(db: Db, messageIds: number[]) {
  return messageIds.length === 0 ? [] : messageGroups(db, { messageIds });
}

const recipientPage = prepared((db, p: Placeholders<{ messageId: number; limit: number; offset: number }>) =>
  pageAndTotal(
    db,
    db.selectFrom('cec_message_recipients').where('message_id', '=', p.messageId),
    db
      .selectFrom('cec_message_recipients')
      .select(['id', 'name', 'title', 'group_ids'])
      .where('message_id', '=', p.messageId)
      .orderBy(sql`lower(name)`)
      .orderBy('id')
      .limit(p.limit)
      .offset(p.offset),
  ),
);

/** A page of a message's recipients by name, and the total. */
export const selectRecipients = async (db: Db, messageId: number, page: PageParams) =>
  pageRows(await recipientPage(db, { messageId, ...page }));

const recipientDispatches = prepared((db, p: Placeholders<{ messageId: number; recipientIds: number[] }>) =>
  db
    .selectFrom('dispatches')
    .select(['recipient_id', 'channel', 'sent_to', 'status', 'read_at'])
    .where('source', '=', sql.lit('cec'))
    .where('message_id', '=', p.messageId)
    .where(sql<boolean>`recipient_id = any(${p.recipientIds}::bigint[])`)
    .where(sql<boolean>`channel in ('email', 'sms')`),
);

export async function selectRecipientDispatches(db: Db, messageId: number, recipientIds: number[]) {
  return recipientIds.length === 0 ? [] : recipientDispatches(db, { messageId, recipientIds });
}

/** Operators set a tenant's sender settings (email display name, SMS sender id); they have no API. */
export async function upsertSenderSettings(
  db: Db,
  tenantId: number,
  values: { email_sender_name: string; sms_sender_id: string },
  now: Date,
): Promise<void> {
  await db
    .insertInto('cec_sender_settings')
    .values({ tenant_id: tenantId, ...values, updated_at: now })
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ ...values, updated_at: now }))
    .execute();
}

/** The message a confirmation link stands for, found by the hash of its token. */
export const findConfirmableDispatch = (db: Executor, confirmationHash: string) =>
  db
    .selectFrom('dispatches as d')
    .innerJoin('cec_messages as m', 'm.id', 'd.message_id')
    .select(['d.id', 'd.read_at', 'm.content', 'm.email_sender_name as sender', 'd.language'])
    .where('d.source', '=', 'cec')
    .where('d.confirmation_hash', '=', confirmationHash)
    .executeTakeFirst();

/** Records the first confirmation of a dispatch; confirming again changes nothing. */
export async function confirmDispatchRead(db: Executor, dispatchId: number, at: Date): Promise<void> {
  await db
    .updateTable('dispatches')
    .set({ read_at: at })
    .where('id', '=', dispatchId)
    .where('read_at', 'is', null)
    .execute();
}

/** A message about to be expanded into recipients and dispatches, locked for it. */
export const lockMessageForResolving = (db: Executor, messageId: number) =>
  db
    .selectFrom('cec_messages')
    .select(['id', 'tenant_id', 'sender_user_id', 'is_email', 'is_sms', 'has_voice_call', 'recipients_resolved_at'])
    .where('id', '=', messageId)
    .forUpdate()
    .executeTakeFirst();

/** The contacts of the message's groups become its recipients: one per contact, with the groups it came through. */
export async function insertMessageRecipients(db: Executor, message: { id: number; tenantId: number }): Promise<void> {
  await sql`
      insert into cec_message_recipients (message_id, contact_id, name, title, email, phone, group_ids)
      select ${message.id}, c.id, c.name, c.title, c.email, c.phone, array_agg(gm.group_id order by gm.group_id)
        from cec_message_groups mg
        join cec_group_members gm on gm.group_id = mg.group_id and gm.tenant_id = ${message.tenantId}
        join cec_contacts c on c.id = gm.contact_id and c.tenant_id = ${message.tenantId}
       where mg.message_id = ${message.id}
       group by c.id
       order by c.id
      on conflict do nothing`.execute(db);
}

/** One dispatch on the channel per recipient with an address for it (email or phone), in the recipient's language. */
export async function insertChannelDispatches(
  db: Executor,
  m: { tenantId: number; messageId: number; senderLanguage: string | null },
  channel: DispatchChannel,
  column: 'email' | 'phone',
  now: Date,
): Promise<void> {
  await sql`
    insert into dispatches (tenant_id, source, message_id, recipient_id, channel, sent_to, next_attempt_at, language)
    select ${m.tenantId}, 'cec', r.message_id, r.id, ${channel}, ${sql.ref(`r.${column}`)}, ${now}, coalesce(c.language, ${m.senderLanguage}::text)
      from cec_message_recipients r
      left join cec_contacts c on c.id = r.contact_id
     where r.message_id = ${m.messageId} and ${sql.ref(`r.${column}`)} is not null
     order by r.id
    on conflict do nothing`.execute(db);
}

export async function markRecipientsResolved(db: Executor, messageId: number, at: Date): Promise<void> {
  await db.updateTable('cec_messages').set({ recipients_resolved_at: at }).where('id', '=', messageId).execute();
}

/** What sending a message needs of it: its text, whether it carries a confirmation link, its sender names. */
export const findMessageForDelivery = (db: Executor, messageId: number) =>
  db
    .selectFrom('cec_messages')
    .select(['content', 'has_confirmation_link', 'email_sender_name', 'sms_sender_id'])
    .where('id', '=', messageId)
    .executeTakeFirstOrThrow();
