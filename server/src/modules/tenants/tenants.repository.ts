import { sql } from 'kysely';
import { prepared, type Placeholders } from '../../db/prepared';
import { pageAndTotal } from '../../shared/paging';

/** A page of the tenants a user is a member of, by name (ties by id), each row with the total. */
export const selectTenantsOfUser = prepared((db, p: Placeholders<{ userId: number; limit: number; offset: number }>) =>
  pageAndTotal(
    db,
    db.selectFrom('memberships').where('user_id', '=', p.userId).where('active', '=', sql.lit(true)),
    db
      .selectFrom('tenants as t')
      .innerJoin('memberships as m', 'm.tenant_id', 't.id')
      .select(['t.id', 't.name', 't.logo_url', 't.website_url', 't.may_any_user_activate_im_ok'])
      .where('m.user_id', '=', p.userId)
      .where('m.active', '=', sql.lit(true))
      .orderBy(sql`lower(t.name)`)
      .orderBy('t.id')
      .limit(p.limit)
      .offset(p.offset),
  ),
);
