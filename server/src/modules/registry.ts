import type { HandlerMap } from '../http/operations';
import { passwordsHandlers } from './passwords/passwords.handlers';
import { probesHandlers } from './probes/probes.handlers';
import { pushTokensHandlers } from './push-tokens/push-tokens.handlers';
import { sessionsHandlers } from './sessions/sessions.handlers';
import { apiKeyHandlers } from './api-keys/api-keys.handlers';
import { contactHandlers } from './contacts/contacts.handlers';
import { groupHandlers } from './groups/groups.handlers';
import { meetingRoomHandlers } from './meeting-rooms/meeting-rooms.handlers';
import { tenantHandlers } from './tenants/tenants.handlers';
import { userHandlers } from './users/users.handlers';
import { externalCommunicationHandlers } from './external-communication/external-communication.handlers';
import { personalAlarmsHandlers } from './personal-alarms/personal-alarms.handlers';
import { integrationsHandlers } from './integrations/integrations.handlers';
import { ssoHandlers } from './sso/sso.handlers';
import { scimHandlers } from './scim/scim.handlers';

/** Every operation of the contract, exactly once. */
export const handlers: HandlerMap = {
  ...sessionsHandlers,
  ...probesHandlers,
  ...passwordsHandlers,
  ...pushTokensHandlers,
  ...tenantHandlers,
  ...userHandlers,
  ...groupHandlers,
  ...meetingRoomHandlers,
  ...apiKeyHandlers,
  ...contactHandlers,
  ...externalCommunicationHandlers,
  ...personalAlarmsHandlers,
  ...integrationsHandlers,
  ...ssoHandlers,
  ...scimHandlers,
};
