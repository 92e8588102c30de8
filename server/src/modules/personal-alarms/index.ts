// Personal alarms (lone-worker timers): the module's public face.
export type { PersonalAlarmsDeps } from './personal-alarms.deps';
export { personalAlarmsHandlers } from './personal-alarms.handlers';
export { alarmChangedJob } from './personal-alarms.audit';
export {
  fireAlarm,
  fireAlarms,
  noticeOwnerOfChange,
  summariseRepeats,
  warnOwner,
  warnOwners,
} from './personal-alarms.delivery';
export { alarmRepeatsJob } from './personal-alarms.repeats';
export { alarmFireJob, alarmWarnJob, armTimer } from './personal-alarms.timer';
