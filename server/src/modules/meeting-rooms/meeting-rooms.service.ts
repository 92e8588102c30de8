import type { components } from '../../../../generated/core-api';
import { ApiError } from '../../errors';
import type { AuthContext } from '../../shared/caller';
import type { Db } from '../../db/database';
import { pageOf, pageRows, type Page, type PageParams } from '../../shared/paging';
import { selectMeetingRooms } from './meeting-rooms.repository';

type MeetingRoom = components['schemas']['MeetingRoom'];

/** Rooms are for those who may join them (meetingRoom.mayJoin); others answer 403 FORBIDDEN. */
export async function listMeetingRooms(
  db: Db,
  auth: AuthContext,
  tenantId: number,
  onlyActive: boolean,
  params: PageParams,
): Promise<Page<MeetingRoom>> {
  if (auth.permissions?.meetingRoom?.mayJoin !== true)
    throw new ApiError('FORBIDDEN', { message: 'Not allowed to join meeting rooms' });
  const { rows, total } = pageRows(await selectMeetingRooms(db, { tenantId, ...params }, { onlyActive }));
  const data = rows.map((r) => ({
    id: r.id,
    name: r.name,
    url: r.url,
    description: r.description,
    isActive: r.is_active,
  }));
  return pageOf(data, total, params);
}
