import { sql } from 'kysely';
import { prepared, type Placeholders } from '../../db/prepared';
import { pageAndTotal } from '../../shared/paging';

/** A page of the tenant's meeting rooms by name (ties by id), each row with the total; active ones only if asked. */
export const selectMeetingRooms = prepared(
  (
    db,
    p: Placeholders<{ tenantId: number; limit: number; offset: number }>,
    { onlyActive }: { onlyActive: boolean },
  ) => {
    const rooms = () => {
      const query = db.selectFrom('meeting_rooms').where('tenant_id', '=', p.tenantId);
      return onlyActive ? query.where('is_active', '=', sql.lit(true)) : query;
    };
    return pageAndTotal(
      db,
      rooms(),
      rooms()
        .select(['id', 'name', 'url', 'description', 'is_active'])
        .orderBy(sql`lower(name)`)
        .orderBy('id')
        .limit(p.limit)
        .offset(p.offset),
    );
  },
);
