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

/** The tenant's recipients whose email (case-insensitive) or phone is among those given. */
export async function contactsMatching(db: Executor, tenantId: number, emails: string[], phones: string[]) {
  if (emails.length === 0 && phones.length === 0) return [];
  const lowered = emails.map((e) => e.toLowerCase());
  return db
    .selectFrom('cec_contacts')
    .select(['id', 'name', 'title', 'email', 'phone', 'language'])
    .where('tenant_id', '=', tenantId)
    .where((eb) =>
      eb.or([
        ...(lowered.length ? [eb(sql<string>`lower(email)`, 'in', lowered)] : []),
        ...(phones.length ? [eb('phone', 'in', phones)] : []),
      ]),
    )
    .execute();
}

export async function insertContact(db: Executor, tenantId: number, values: ContactValues): Promise<number> {
  const row = await db
    .insertInto('cec_contacts')
    .values({ tenant_id: tenantId, ...values })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateContact(db: Executor, tenantId: number, id: number, values: ContactValues): Promise<void> {
  await db.updateTable('cec_contacts').set(values).where('tenant_id', '=', tenantId).where('id', '=', id).execute();
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
  const result = await db
    .insertInto('cec_group_members')
    .values(contactIds.map((contact_id) => ({ group_id: groupId, contact_id, tenant_id: tenantId })))
    .onConflict((oc) => oc.columns(['group_id', 'contact_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
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
