// Every kind of durable job and its handler; called once per Services (bootstrap.ts).
import { deliverExternalMessage, externalMessageDeliverJob } from './modules/external-communication';
import { invitationJob, sendInvitation } from './modules/invitations';
import {
  alarmChangedJob,
  alarmFireJob,
  alarmWarnJob,
  fireAlarm,
  noticeOwnerOfChange,
  warnOwner,
} from './modules/personal-alarms';
import type { Services } from './services';
import { housekeepingHandler, housekeepingJob } from './jobs/housekeeping';

export function registerJobHandlers(services: Services): void {
  const { jobs } = services;
  jobs.register(externalMessageDeliverJob, (payload, ctx) =>
    deliverExternalMessage(services, Number(payload.messageId), ctx),
  );
  jobs.register(alarmFireJob, (payload, ctx) =>
    fireAlarm(services, Number(payload.alarmId), Number(payload.version), ctx),
  );
  jobs.register(alarmWarnJob, (payload, ctx) =>
    warnOwner(services, Number(payload.alarmId), Number(payload.version), ctx),
  );
  jobs.register(alarmChangedJob, (payload, ctx) => noticeOwnerOfChange(services, Number(payload.changeId), ctx));
  jobs.register(invitationJob, (payload, ctx) => sendInvitation(services, payload, ctx));
  jobs.register(housekeepingJob, (_payload, ctx) => housekeepingHandler(services, ctx));
}
