import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { PageParams } from './paging';

/** The tenants a user is a member of, by name (ties by id). */
export async function selectTenantsOfUser(db: Db, userId: number, page: PageParams) {
  return db
    .selectFrom('tenants as t')
    .innerJoin('memberships as m', 'm.tenant_id', 't.id')
    .select(['t.id', 't.name', 't.logo_url', 't.website_url', 't.may_any_user_activate_im_ok'])
    .where('m.user_id', '=', userId)
    .where('m.active', '=', true)
    .orderBy(sql`lower(t.name)`)
    .orderBy('t.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countTenantsOfUser(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('memberships')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('user_id', '=', userId)
    .where('active', '=', true)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
