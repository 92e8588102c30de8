// Every kind of durable job and its handler; called once per Services (bootstrap.ts).
import { cecDeliverJob } from '../modules/external-communication/external-communication.service';
import { deliverCecMessage } from '../modules/external-communication/external-communication.delivery';
import { fireAlarm, warnOwner } from '../modules/personal-alarms/personal-alarms.delivery';
import { alarmFireJob, alarmWarnJob } from '../modules/personal-alarms/personal-alarms.timer';
import type { Services } from '../services';

export function registerJobHandlers(services: Services): void {
  const { jobs } = services;
  jobs.register(cecDeliverJob, (payload, ctx) => deliverCecMessage(services, Number(payload.messageId), ctx));
  jobs.register(alarmFireJob, (payload, ctx) => fireAlarm(services, Number(payload.alarmId), Number(payload.version), ctx));
  jobs.register(alarmWarnJob, (payload, ctx) => warnOwner(services, Number(payload.alarmId), Number(payload.version), ctx));
}
