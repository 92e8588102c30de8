// Meeting rooms: the module's public face.
export { meetingRoomHandlers } from './meeting-rooms.handlers';
