// Security events: the module's public face. Other modules record events through recordSecurityEvent(s), in the
// transaction of what they record, with the client eventClient builds from the request.
export type { SecurityEventsDeps } from './security-events.deps';
export { securityEventsHandlers } from './security-events.handlers';
export {
  countSecurityEvents,
  recordSecurityEvent,
  recordSecurityEvents,
  securityEventKinds,
  securityEventRow,
  toSecurityEvent,
  type SecurityEvent,
  type SecurityEventActor,
  type SecurityEventDetails,
  type SecurityEventKind,
  type SecurityEventOutcome,
} from './security-events.service';
export { eventClient, networkOf, coarseUserAgent, regionOnly, type EventClient } from './security-events.client';
export {
  allSecurityEvents,
  exportBatch,
  latestSecurityEvents,
  type OperatorEventFilter,
} from './security-events.operator';
