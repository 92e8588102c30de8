// The ports the meeting rooms module uses, in one place; the composition root (modules/registry.ts) hands it
// exactly these.
import type { Db } from '../../db/database';

export interface MeetingRoomsDeps {
  db: Db;
}
