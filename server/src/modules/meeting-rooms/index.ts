// Meeting rooms: the module's public face.
export type { MeetingRoomsDeps } from './meeting-rooms.deps';
export { meetingRoomHandlers } from './meeting-rooms.handlers';
