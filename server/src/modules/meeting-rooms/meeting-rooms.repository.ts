import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { PageParams } from '../tenants/paging';

function tenantRooms(db: Db, tenantId: number, onlyActive: boolean) {
  const query = db.selectFrom('meeting_rooms').where('tenant_id', '=', tenantId);
  return onlyActive ? query.where('is_active', '=', true) : query;
}

export async function selectMeetingRooms(db: Db, tenantId: number, onlyActive: boolean, page: PageParams) {
  return tenantRooms(db, tenantId, onlyActive)
    .select(['id', 'name', 'url', 'description', 'is_active'])
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countMeetingRooms(db: Db, tenantId: number, onlyActive: boolean): Promise<number> {
  const row = await tenantRooms(db, tenantId, onlyActive)
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
