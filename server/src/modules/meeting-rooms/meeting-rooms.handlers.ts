import { requireAuth, requireTenant, type PartialHandlers } from '../../http/operations';
import { pageParams } from '../../shared/paging';
import { listMeetingRooms } from './meeting-rooms.service';

export const meetingRoomHandlers: PartialHandlers<'listMeetingRooms'> = {
  listMeetingRooms: async (ctx) => ({
    status: 200,
    body: await listMeetingRooms(
      ctx.services.db,
      requireAuth(ctx),
      requireTenant(ctx),
      ctx.query.status === 'active',
      pageParams(ctx.query),
    ),
  }),
};
