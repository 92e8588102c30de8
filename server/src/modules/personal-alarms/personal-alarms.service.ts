// Personal alarms (lone-worker timers): a person arms a timer on their device; unless it is stopped or moved
// before dispatchAt, the alarm goes to the recipients then. Every change of an active timer runs in one
// transaction with the jobs that carry it (personal-alarms.timer.ts).
import type { components } from '../../../../generated/core-api';
import type { Db } from '../../db/database';
import { ApiError } from '../../errors';
import type { AuthContext } from '../../shared/caller';
import type { PersonalAlarmsDeps } from './personal-alarms.deps';
import { pageOf, type Page, type PageParams } from '../../shared/paging';
import { countAlarmCreation, dispatchesAtOnce } from '../../security/sending-quotas';
import {
  countAlarms,
  countReachedUsers,
  findActiveAlarmOnDevice,
  findAlarm,
  findLocationPoint,
  insertAlarm,
  insertLocation,
  replaceRecipientGroups,
  replaceRecipientUsers,
  selectAlarms,
  selectRecipientRefs,
  updateAlarm,
  validRecipientRefs,
  type AlarmRow,
} from './personal-alarms.repository';
import { diff, recordAlarmChange, requireOwnerOrOperator, sortedIds, type AlarmChanges } from './personal-alarms.audit';
import { armTimer, disarmTimer } from './personal-alarms.timer';

type PersonalAlarm = components['schemas']['PersonalAlarm'];
type CreateRequest = components['schemas']['CreatePersonalAlarmRequest'];
type UpdateRequest = components['schemas']['UpdatePersonalAlarmRequest'];
type Flag = 'mayActivate' | 'mayDeactivate';

function requireFlag(auth: AuthContext, ...flags: Flag[]): void {
  if (!flags.some((flag) => auth.permissions?.alarms?.[flag] === true)) {
    throw new ApiError('FORBIDDEN', {
      message: `The user may not ${flags.includes('mayActivate') ? 'start or change' : 'stop'} personal alarms`,
    });
  }
}

const notFound = () => new ApiError('PERSONAL_ALARM_NOT_FOUND', { message: 'Personal alarm not found' });
const deviceConflict = () =>
  new ApiError('PERSONAL_ALARM_CONFLICT', { message: 'The device already has an active personal alarm' });
const dispatchedConflict = () =>
  new ApiError('PERSONAL_ALARM_CONFLICT', { message: 'The personal alarm has already been dispatched' });
const noRecipients = () =>
  new ApiError('PERSONAL_ALARM_NOT_FOUND_RECIPIENTS', { message: 'No valid recipients found' });

export function toPersonalAlarm(row: AlarmRow): PersonalAlarm {
  return {
    id: row.id,
    text: row.text,
    dispatchTime: row.dispatch_at.toISOString(),
    createdTime: row.created_at.toISOString(),
    active: row.active,
    userId: row.user_id,
    locationId: row.location_id,
    messageId: row.message_id,
    deviceId: row.device_id,
    oneMinuteWarning: row.one_minute_warning,
  };
}

/** Ids that are not users or groups of the tenant are left out; someone besides the owner must remain to be reached. */
async function recipientsOf(db: Db, tenantId: number, ownerId: number, userIds: number[], groupIds: number[]) {
  const refs = await validRecipientRefs(db, tenantId, userIds, groupIds);
  if ((await countReachedUsers(db, ownerId, refs.users, refs.groups)) === 0) throw noRecipients();
  return refs;
}

async function locationOf(db: Db, locationId: number | null) {
  if (locationId === null) return null;
  const row = await findLocationPoint(db, locationId);
  return row ? { latitude: row.latitude, longitude: row.longitude } : null;
}

/** The unique index on active (user, device) decides races the pre-check cannot see. */
function isActiveDeviceViolation(error: unknown): boolean {
  // Stryker disable all: reached only when two connections race past the pre-check; the embedded database of mutation
  // runs has one connection, on which transactions run one after the other.
  return (
    error instanceof Error &&
    /personal_alarms_active_device_uq/.test(`${error.message} ${(error as { constraint?: string }).constraint ?? ''}`)
  );
}
// Stryker restore all

async function inTransaction<T>(services: PersonalAlarmsDeps, work: (trx: Db) => Promise<T>): Promise<T> {
  try {
    return await services.db.transaction().execute(work);
  } catch (error) {
    // Stryker disable next-line ConditionalExpression: as isActiveDeviceViolation, reached only when connections race.
    if (isActiveDeviceViolation(error)) throw deviceConflict();
    throw error;
  }
}

export async function createPersonalAlarm(
  services: PersonalAlarmsDeps,
  auth: AuthContext,
  tenantId: number,
  body: CreateRequest,
): Promise<PersonalAlarm> {
  requireFlag(auth, 'mayActivate');
  if (body.sender.userId !== auth.userId)
    throw new ApiError('FORBIDDEN', { message: 'A personal alarm can only be started for yourself' });
  const now = services.now();
  const row = await inTransaction(services, async (trx) => {
    const refs = await recipientsOf(trx, tenantId, auth.userId, body.recipientUserIds, body.groupIds);
    // Stryker disable next-line ConditionalExpression: without the pre-check the unique index refuses the insert, which
    // inTransaction answers with the same 409; the pre-check spares the location's insert and the index's error.
    if (body.active && (await findActiveAlarmOnDevice(trx, auth.userId, body.sender.deviceId))) throw deviceConflict();
    const locationId = body.location ? await insertLocation(trx, tenantId, body.location) : null;
    const alarm = await insertAlarm(trx, {
      tenant_id: tenantId,
      user_id: auth.userId,
      device_id: body.sender.deviceId,
      text: body.text,
      dispatch_at: new Date(body.dispatchAt),
      active: body.active,
      one_minute_warning: body.oneMinuteWarning,
      location_id: locationId,
      created_at: now,
      updated_at: now,
    });
    await replaceRecipientUsers(trx, alarm.id, refs.users);
    await replaceRecipientGroups(trx, alarm.id, refs.groups);
    // Counted last, once every check has passed: a refused request spends nothing, and an alarm that goes off now is
    // never counted nor refused (security/sending-quotas.ts).
    const goesOffNow = alarm.active && dispatchesAtOnce(alarm.dispatch_at, now);
    await countAlarmCreation(trx, now, services.config.quotas, auth.userId, goesOffNow);
    if (alarm.active) await armTimer(services, trx, alarm);
    await recordAlarmChange(services, trx, alarm, auth.userId, 'create', {
      text: { to: alarm.text },
      dispatchTime: { to: alarm.dispatch_at.toISOString() },
      active: { to: alarm.active },
      oneMinuteWarning: { to: alarm.one_minute_warning },
      location: { to: body.location ?? null },
      recipientUserIds: { to: sortedIds(refs.users) },
      groupIds: { to: sortedIds(refs.groups) },
    });
    return alarm;
  });
  services.jobs.wake();
  return toPersonalAlarm(row);
}

export async function listPersonalAlarms(
  services: PersonalAlarmsDeps,
  auth: AuthContext,
  tenantId: number,
  onlyActive: boolean,
  page: PageParams,
): Promise<Page<PersonalAlarm>> {
  requireFlag(auth, 'mayActivate', 'mayDeactivate');
  const [rows, total] = await Promise.all([
    selectAlarms(services.db, tenantId, onlyActive, page),
    countAlarms(services.db, tenantId, onlyActive),
  ]);
  return pageOf(rows.map(toPersonalAlarm), total, page);
}

export async function getPersonalAlarm(
  services: PersonalAlarmsDeps,
  auth: AuthContext,
  tenantId: number,
  id: number,
): Promise<PersonalAlarm> {
  requireFlag(auth, 'mayActivate', 'mayDeactivate');
  const row = await findAlarm(services.db, tenantId, id);
  if (!row) throw notFound();
  return toPersonalAlarm(row);
}

export async function updatePersonalAlarm(
  services: PersonalAlarmsDeps,
  auth: AuthContext,
  tenantId: number,
  id: number,
  body: UpdateRequest,
): Promise<PersonalAlarm> {
  requireFlag(auth, 'mayActivate');
  // A change never spends a quota: moving an alarm to go off now is the owner's (or an operator's "send now") and is
  // never refused (security/sending-quotas.ts).
  const row = await inTransaction(services, async (trx) => {
    // Stryker disable next-line BooleanLiteral: the row lock orders transactions of different connections; the embedded
    // database of mutation runs has one connection, on which transactions run one after the other.
    const alarm = await findAlarm(trx, tenantId, id, true);
    if (!alarm) throw notFound();
    requireOwnerOrOperator(auth, alarm, 'change');
    if (alarm.message_id !== null) throw dispatchedConflict();
    const changes: AlarmChanges = {};
    if (body.recipientUserIds !== undefined || body.groupIds !== undefined) {
      const current = await selectRecipientRefs(trx, id);
      const refs = await recipientsOf(
        trx,
        tenantId,
        alarm.user_id,
        body.recipientUserIds ?? current.users,
        body.groupIds ?? current.groups,
      );
      if (body.recipientUserIds !== undefined) {
        await replaceRecipientUsers(trx, id, refs.users);
        diff(changes, 'recipientUserIds', sortedIds(current.users), sortedIds(refs.users));
      }
      if (body.groupIds !== undefined) {
        await replaceRecipientGroups(trx, id, refs.groups);
        diff(changes, 'groupIds', sortedIds(current.groups), sortedIds(refs.groups));
      }
    }
    if (body.dispatchAt !== undefined)
      diff(changes, 'dispatchTime', alarm.dispatch_at.toISOString(), new Date(body.dispatchAt).toISOString());
    if (body.text !== undefined) diff(changes, 'text', alarm.text, body.text);
    if (body.oneMinuteWarning !== undefined)
      diff(changes, 'oneMinuteWarning', alarm.one_minute_warning, body.oneMinuteWarning);
    if (body.location !== undefined) diff(changes, 'location', await locationOf(trx, alarm.location_id), body.location);
    const timerMoves = alarm.active && (body.dispatchAt !== undefined || body.oneMinuteWarning !== undefined);
    const updated = await updateAlarm(trx, id, {
      // Stryker disable next-line ConditionalExpression: Kysely leaves out a column set to undefined, as the empty
      // object does.
      ...(body.text !== undefined ? { text: body.text } : {}),
      ...(body.dispatchAt !== undefined ? { dispatch_at: new Date(body.dispatchAt) } : {}),
      // Stryker disable next-line ConditionalExpression: Kysely leaves out a column set to undefined, as the empty
      // object does.
      ...(body.oneMinuteWarning !== undefined ? { one_minute_warning: body.oneMinuteWarning } : {}),
      ...(body.location !== undefined ? { location_id: await insertLocation(trx, tenantId, body.location) } : {}),
      ...(timerMoves ? { version: alarm.version + 1 } : {}),
      updated_at: services.now(),
    });
    if (timerMoves) {
      await disarmTimer(services, trx, alarm);
      await armTimer(services, trx, updated);
    }
    await recordAlarmChange(services, trx, alarm, auth.userId, 'update', changes);
    return updated;
  });
  services.jobs.wake();
  return toPersonalAlarm(row);
}

export async function activatePersonalAlarm(
  services: PersonalAlarmsDeps,
  auth: AuthContext,
  tenantId: number,
  id: number,
): Promise<PersonalAlarm> {
  requireFlag(auth, 'mayActivate');
  // Starting an alarm never spends a quota, whenever it goes off (security/sending-quotas.ts).
  const row = await inTransaction(services, async (trx) => {
    // Stryker disable next-line BooleanLiteral: the row lock orders transactions of different connections; the embedded
    // database of mutation runs has one connection, on which transactions run one after the other.
    const alarm = await findAlarm(trx, tenantId, id, true);
    if (!alarm) throw notFound();
    requireOwnerOrOperator(auth, alarm, 'start');
    if (alarm.active) return alarm;
    if (alarm.message_id !== null) throw dispatchedConflict();
    // Stryker disable next-line ConditionalExpression: equivalent; without this check the unique index on active (user,
    // device) refuses the same start with the same answer (isActiveDeviceViolation). The check spares a failed write.
    if (await findActiveAlarmOnDevice(trx, alarm.user_id, alarm.device_id, alarm.id)) throw deviceConflict();
    const updated = await updateAlarm(trx, id, {
      active: true,
      version: alarm.version + 1,
      updated_at: services.now(),
    });
    await armTimer(services, trx, updated);
    await recordAlarmChange(services, trx, alarm, auth.userId, 'activate', { active: { from: false, to: true } });
    return updated;
  });
  services.jobs.wake();
  return toPersonalAlarm(row);
}

export async function deactivatePersonalAlarm(
  services: PersonalAlarmsDeps,
  auth: AuthContext,
  tenantId: number,
  id: number,
): Promise<PersonalAlarm> {
  requireFlag(auth, 'mayDeactivate');
  const row = await inTransaction(services, async (trx) => {
    // Stryker disable next-line BooleanLiteral: the row lock orders transactions of different connections; the embedded
    // database of mutation runs has one connection, on which transactions run one after the other.
    const alarm = await findAlarm(trx, tenantId, id, true);
    if (!alarm) throw notFound();
    requireOwnerOrOperator(auth, alarm, 'stop');
    if (!alarm.active) return alarm;
    const updated = await updateAlarm(trx, id, {
      active: false,
      version: alarm.version + 1,
      updated_at: services.now(),
    });
    await disarmTimer(services, trx, alarm);
    await recordAlarmChange(services, trx, alarm, auth.userId, 'deactivate', { active: { from: true, to: false } });
    return updated;
  });
  services.jobs.wake();
  return toPersonalAlarm(row);
}
