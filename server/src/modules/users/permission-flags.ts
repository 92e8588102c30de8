import type { components } from '../../../../generated/core-api';

export type UserPermissions = components['schemas']['UserPermissions'];
type Area = keyof UserPermissions;

/** Every area and its may-flags (spec section 3), in display order. */
export const permissionAreas: { [A in Area]: Exclude<keyof UserPermissions[A], 'displayOrder'>[] } = {
  alarms: ['mayActivate', 'mayDeactivate'],
  broadcast: ['maySend'],
  checklists: [
    'mayUse',
    'mayCreateTemplate',
    'mayAddTask',
    'mayEditAccess',
    'mayRename',
    'mayActivate',
    'mayDeactivate',
    'mayReactivate',
  ],
  cec: ['maySend'],
  documents: ['mayRead', 'mayAdd', 'mayManageOffline', 'mayEditAccess', 'mayRename', 'mayDelete'],
  groups: ['mayInteractWithOwn', 'mayInteractWithAll'],
  holdingStatement: ['mayCreate'],
  imOk: ['mayReceive', 'mayActivate', 'mayDeactivate', 'mayMessage', 'mayEdit', 'mayDelete'],
  onCallAlert: ['mayReceive', 'mayActivate', 'mayDeactivate', 'mayMessage', 'mayEdit', 'mayDelete'],
  loneWorkerTimer: ['mayActivate'],
  logNotes: ['mayCreate'],
  meetingRoom: ['mayJoin'],
  messages: ['mayCreate', 'mayAddRecipients', 'mayBlock', 'mayDelete'],
  news: ['mayRead'],
  panicButton: ['mayActivate'],
  www: ['maySee'],
};

/**
 * A complete permissions object: every flag `value` unless `grants` names it (as `area.flag`), with the
 * areas numbered in display order. Stored per membership and returned as is.
 */
export function buildPermissions(value: boolean, grants: string[] = [], denials: string[] = []): UserPermissions {
  const result: Record<string, Record<string, boolean | number | null>> = {};
  Object.entries(permissionAreas).forEach(([area, flags], index) => {
    const entry: Record<string, boolean | number | null> = {};
    for (const flag of flags as string[]) {
      const key = `${area}.${flag}`;
      entry[flag] = grants.includes(key) ? true : denials.includes(key) ? false : value;
    }
    entry.displayOrder = index + 1;
    result[area] = entry;
  });
  return result as unknown as UserPermissions;
}

/** What an ordinary member may do until an administrator grants more (members a directory or an operator adds). */
export const memberPermissions = (): UserPermissions =>
  buildPermissions(false, [
    'groups.mayInteractWithOwn',
    'alarms.mayActivate',
    'alarms.mayDeactivate',
    'documents.mayRead',
    'news.mayRead',
    'meetingRoom.mayJoin',
    'checklists.mayUse',
  ]);
