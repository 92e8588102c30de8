// SQL of the operator's set-up of external communication (groups, recipients, templates), which the API only
// reads. Every statement carries the tenant predicate.
import { sql } from 'kysely';
import type { Executor } from '../../db/database';

export async function insertCecGroup(db: Executor, tenantId: number, name: string): Promise<number> {
  const row = await db
    .insertInto('cec_groups')
    .values({ tenant_id: tenantId, name })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function findCecGroup(db: Executor, tenantId: number, groupId: number) {
  return db
    .selectFrom('cec_groups')
    .select(['id', 'name'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', groupId)
    .executeTakeFirst();
}

/** Another group of the tenant with this name (case-insensitive), if any. */
export async function findCecGroupNamed(db: Executor, tenantId: number, name: string, except?: number) {
  let query = db
    .selectFrom('cec_groups')
    .select(['id', 'name'])
    .where('tenant_id', '=', tenantId)
    .where(sql<boolean>`lower(name) = lower(${name})`);
  if (except !== undefined) query = query.where('id', '<>', except);
  return query.executeTakeFirst();
}

export async function allCecGroups(db: Executor, tenantId: number) {
  return db
    .selectFrom('cec_groups as g')
    .where('g.tenant_id', '=', tenantId)
    .select((eb) => [
      'g.id',
      'g.name',
      eb
        .selectFrom('cec_group_members as m')
        .whereRef('m.group_id', '=', 'g.id')
        .select(eb.fn.countAll<string>().as('n'))
        .as('members'),
    ])
    .orderBy(sql`lower(g.name)`)
    .orderBy('g.id')
    .execute();
}

export async function renameCecGroup(db: Executor, tenantId: number, groupId: number, name: string): Promise<void> {
  await db
    .updateTable('cec_groups')
    .set({ name })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', groupId)
    .execute();
}

/** Deletes the group and its memberships; its recipients stay (they may be in other groups). */
export async function deleteCecGroup(db: Executor, tenantId: number, groupId: number): Promise<void> {
  await db.deleteFrom('cec_groups').where('tenant_id', '=', tenantId).where('id', '=', groupId).execute();
}

export interface ContactValues {
  name: string;
  title: string | null;
  email: string | null;
  phone: string | null;
  language: string | null;
}

export type Contact = ContactValues & { id: number };

/**
 * The tenant's recipients whose email (case-insensitive) or phone is among those given. The lists go in as two
 * array values, each joined to the table (a hash join however long they are), not as one parameter per value: the
 * wire protocol caps a statement at 65,535 parameters, and an `in` list that long is planned slowly.
 */
export async function contactsMatching(db: Executor, tenantId: number, emails: string[], phones: string[]) {
  if (emails.length === 0 && phones.length === 0) return [];
  const lowered = emails.map((e) => e.toLowerCase());
  const { rows } = await sql<Contact>`
    select c.id, c.name, c.title, c.email, c.phone, c.language
      from cec_contacts c join unnest(${lowered}::text[]) as given (email) on lower(c.email) = given.email
     where c.tenant_id = ${tenantId}
    union
    select c.id, c.name, c.title, c.email, c.phone, c.language
      from cec_contacts c join unnest(${phones}::text[]) as given (phone) on c.phone = given.phone
     where c.tenant_id = ${tenantId}`.execute(db);
  return rows;
}

const columnsOf = (contacts: ContactValues[]) => ({
  names: contacts.map((c) => c.name),
  titles: contacts.map((c) => c.title),
  emails: contacts.map((c) => c.email),
  phones: contacts.map((c) => c.phone),
  languages: contacts.map((c) => c.language),
});

/** Adds the recipients and puts them in the group, in one statement whatever their number (arrays, not rows of parameters). */
export async function insertContactsIntoGroup(
  db: Executor,
  tenantId: number,
  groupId: number,
  contacts: ContactValues[],
): Promise<void> {
  if (contacts.length === 0) return;
  const c = columnsOf(contacts);
  await sql`
    with added as (
      insert into cec_contacts (tenant_id, name, title, email, phone, language)
      select ${tenantId}, v.name, v.title, v.email, v.phone, v.language
        from unnest(${c.names}::text[], ${c.titles}::text[], ${c.emails}::text[], ${c.phones}::text[], ${c.languages}::text[])
          as v (name, title, email, phone, language)
      returning id)
    insert into cec_group_members (group_id, contact_id, tenant_id)
    select ${groupId}, added.id, ${tenantId} from added`.execute(db);
}

/** Sets each recipient's values, in one statement whatever their number. */
export async function updateContacts(db: Executor, tenantId: number, contacts: Contact[]): Promise<void> {
  if (contacts.length === 0) return;
  const c = columnsOf(contacts);
  const ids = contacts.map((contact) => contact.id);
  await sql`
    update cec_contacts c
       set name = v.name, title = v.title, email = v.email, phone = v.phone, language = v.language
      from unnest(${ids}::bigint[], ${c.names}::text[], ${c.titles}::text[], ${c.emails}::text[], ${c.phones}::text[], ${c.languages}::text[])
        as v (id, name, title, email, phone, language)
     where c.tenant_id = ${tenantId} and c.id = v.id`.execute(db);
}

export async function findContact(db: Executor, tenantId: number, id: number) {
  return db
    .selectFrom('cec_contacts')
    .select(['id', 'name', 'email', 'phone'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function deleteContact(db: Executor, tenantId: number, id: number): Promise<void> {
  await db.deleteFrom('cec_contacts').where('tenant_id', '=', tenantId).where('id', '=', id).execute();
}

/** Adds the contacts to the group; those already in it stay. Answers how many were added. */
export async function addToCecGroup(db: Executor, tenantId: number, groupId: number, contactIds: number[]) {
  if (contactIds.length === 0) return 0;
  const result = await sql`
    insert into cec_group_members (group_id, contact_id, tenant_id)
    select ${groupId}, id, ${tenantId} from unnest(${contactIds}::bigint[]) as given (id)
    on conflict (group_id, contact_id) do nothing`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** The ids of the group's members. */
export async function memberIdsOf(db: Executor, tenantId: number, groupId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('cec_group_members')
    .select('contact_id')
    .where('tenant_id', '=', tenantId)
    .where('group_id', '=', groupId)
    .execute();
  return rows.map((r) => Number(r.contact_id));
}

/** Answers whether the contact was in the group. */
export async function removeFromCecGroup(db: Executor, tenantId: number, groupId: number, contactId: number) {
  const result = await db
    .deleteFrom('cec_group_members')
    .where('tenant_id', '=', tenantId)
    .where('group_id', '=', groupId)
    .where('contact_id', '=', contactId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function contactsOf(db: Executor, tenantId: number, groupId?: number) {
  let query = db
    .selectFrom('cec_contacts as c')
    .where('c.tenant_id', '=', tenantId)
    .select((eb) => [
      'c.id',
      'c.name',
      'c.title',
      'c.email',
      'c.phone',
      eb
        .selectFrom('cec_group_members as m')
        .whereRef('m.contact_id', '=', 'c.id')
        .select(sql<string>`coalesce(string_agg(m.group_id::text, ',' order by m.group_id), '')`.as('g'))
        .as('groups'),
    ]);
  if (groupId !== undefined)
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('cec_group_members as m')
          .select('m.contact_id')
          .whereRef('m.contact_id', '=', 'c.id')
          .where('m.group_id', '=', groupId),
      ),
    );
  return query
    .orderBy(sql`lower(c.name)`)
    .orderBy('c.id')
    .execute();
}

export async function insertTemplate(db: Executor, tenantId: number, values: { name: string; content: string }) {
  const row = await db
    .insertInto('cec_templates')
    .values({ tenant_id: tenantId, ...values })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function findTemplate(db: Executor, tenantId: number, id: number) {
  return db
    .selectFrom('cec_templates')
    .select(['id', 'name', 'content'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function allTemplates(db: Executor, tenantId: number) {
  return db
    .selectFrom('cec_templates')
    .select(['id', 'name', 'content'])
    .where('tenant_id', '=', tenantId)
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .execute();
}

export async function updateTemplate(
  db: Executor,
  tenantId: number,
  id: number,
  values: { name?: string; content?: string },
): Promise<void> {
  await db.updateTable('cec_templates').set(values).where('tenant_id', '=', tenantId).where('id', '=', id).execute();
}

export async function deleteTemplate(db: Executor, tenantId: number, id: number): Promise<void> {
  await db.deleteFrom('cec_templates').where('tenant_id', '=', tenantId).where('id', '=', id).execute();
}

/** Serialises imports into one tenant's recipients (the matching by email and phone reads, then writes). */
export async function lockTenantRecipients(db: Executor, tenantId: number): Promise<void> {
  await db.selectFrom('tenants').select('id').where('id', '=', tenantId).forUpdate().execute();
}
