// Every kind of durable job and its handler; called once per Services (bootstrap.ts).
import { deliverExternalMessage, externalMessageDeliverJob } from './modules/external-communication';
import { invitationJob, sendInvitation } from './modules/invitations';
import {
  alarmChangedJob,
  alarmFireJob,
  alarmRepeatsJob,
  alarmWarnJob,
  fireAlarms,
  noticeOwnerOfChange,
  summariseRepeats,
  warnOwners,
} from './modules/personal-alarms';
import type { Services } from './services';
import { housekeepingHandler, housekeepingJob } from './jobs/housekeeping';
import { sendVolumeNotice, volumeNoticeJob } from './notify/unusual-volume';
import type { BatchJob } from './jobs/scheduler';

export function registerJobHandlers(services: Services): void {
  const { jobs } = services;
  jobs.register(externalMessageDeliverJob, (payload, ctx) =>
    deliverExternalMessage(services, Number(payload.messageId), ctx),
  );
  // The alarms of armed timers due together are claimed together and recorded in one transaction.
  const alarmJobs = (batch: BatchJob[]) =>
    batch.map(({ payload, ctx }) => ({ alarmId: Number(payload.alarmId), version: Number(payload.version), ctx }));
  jobs.registerBatch(alarmFireJob, (batch) => fireAlarms(services, alarmJobs(batch)));
  jobs.registerBatch(alarmWarnJob, (batch) => warnOwners(services, alarmJobs(batch)));
  jobs.register(alarmRepeatsJob, (payload, ctx) =>
    summariseRepeats(services, Number(payload.windowId), Number(payload.generation), ctx),
  );
  jobs.register(alarmChangedJob, (payload, ctx) => noticeOwnerOfChange(services, Number(payload.changeId), ctx));
  jobs.register(volumeNoticeJob, (payload, ctx) => sendVolumeNotice(services, Number(payload.noticeId), ctx));
  jobs.register(invitationJob, (payload, ctx) => sendInvitation(services, payload, ctx));
  jobs.register(housekeepingJob, (_payload, ctx) => housekeepingHandler(services, ctx));
}
