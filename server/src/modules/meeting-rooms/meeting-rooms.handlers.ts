import { requireAuth, requireTenant, type PartialHandlers } from '../../http/operations';
import { pageParams } from '../../shared/paging';
import { listMeetingRooms } from './meeting-rooms.service';
import type { MeetingRoomsDeps } from './meeting-rooms.deps';

export const meetingRoomHandlers = (services: MeetingRoomsDeps): PartialHandlers<'listMeetingRooms'> => ({
  listMeetingRooms: async (ctx) => ({
    status: 200,
    body: await listMeetingRooms(
      services.db,
      requireAuth(ctx),
      requireTenant(ctx),
      ctx.query.status === 'active',
      pageParams(ctx.query),
    ),
  }),
});
