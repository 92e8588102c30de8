import { requireAuth, requireTenant, type PartialHandlers } from '../../http/operations';
import { pageParams } from '../../shared/paging';
import {
  activatePersonalAlarm,
  createPersonalAlarm,
  deactivatePersonalAlarm,
  getPersonalAlarm,
  listPersonalAlarms,
  updatePersonalAlarm,
} from './personal-alarms.service';
import type { PersonalAlarmsDeps } from './personal-alarms.deps';

type Operations =
  | 'createPersonalAlarm'
  | 'listPersonalAlarms'
  | 'getPersonalAlarm'
  | 'updatePersonalAlarm'
  | 'activatePersonalAlarm'
  | 'deactivatePersonalAlarm';

export const personalAlarmsHandlers = (services: PersonalAlarmsDeps): PartialHandlers<Operations> => ({
  createPersonalAlarm: async (ctx) => ({
    status: 201,
    body: await createPersonalAlarm(services, requireAuth(ctx), requireTenant(ctx), ctx.body),
  }),
  listPersonalAlarms: async (ctx) => ({
    status: 200,
    body: await listPersonalAlarms(
      services,
      requireAuth(ctx),
      requireTenant(ctx),
      ctx.query?.status === 'active',
      pageParams(ctx.query),
    ),
  }),
  getPersonalAlarm: async (ctx) => ({
    status: 200,
    body: await getPersonalAlarm(services, requireAuth(ctx), requireTenant(ctx), ctx.path.id),
  }),
  updatePersonalAlarm: async (ctx) => ({
    status: 200,
    body: await updatePersonalAlarm(services, requireAuth(ctx), requireTenant(ctx), ctx.path.id, ctx.body),
  }),
  activatePersonalAlarm: async (ctx) => ({
    status: 200,
    body: await activatePersonalAlarm(services, requireAuth(ctx), requireTenant(ctx), ctx.path.id),
  }),
  deactivatePersonalAlarm: async (ctx) => ({
    status: 200,
    body: await deactivatePersonalAlarm(services, requireAuth(ctx), requireTenant(ctx), ctx.path.id),
  }),
});
