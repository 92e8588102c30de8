import type { CredentialSchemes } from '../http/dispatch';
import type { ErrorRefiner } from '../http/error-handler';
import type { ErrorShape } from '../http/error-shapes';
import type { HandlerMap } from '../http/operations';
import { passwordsHandlers, refineNewPasswordIssues } from './passwords';
import { probesHandlers } from './probes';
import { pushTokensHandlers } from './push-tokens';
import { sessionsHandlers } from './sessions';
import { apiKeyHandlers } from './api-keys';
import { contactHandlers } from './contacts';
import { groupHandlers } from './groups';
import { meetingRoomHandlers } from './meeting-rooms';
import { tenantHandlers } from './tenants';
import { userHandlers } from './users';
import { externalCommunicationHandlers } from './external-communication';
import { personalAlarmsHandlers } from './personal-alarms';
import { integrationsHandlers } from './integrations';
import { ssoHandlers, ssoSignIn } from './sso';
import { authenticateScimKey, scimErrorShape, scimHandlers } from './scim';
import { passkeySignIn, passkeysHandlers } from './passkeys';

/** Every operation of the contract, exactly once. */
export const handlers: HandlerMap = {
  ...sessionsHandlers({ sso: ssoSignIn, passkey: passkeySignIn }),
  ...passkeysHandlers,
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

/** Credential schemes of the contract that a module authenticates (http/dispatch.ts). */
export const credentialSchemes: CredentialSchemes = { scimApiKey: authenticateScimKey };

/** Module-specific sharpening of errors before they are answered (http/error-handler.ts). */
export const errorRefiners: readonly ErrorRefiner[] = [refineNewPasswordIssues];

/** Parts of the API with their own error shape, for what is answered before Express (http/error-shapes.ts). */
export const errorShapes: readonly ErrorShape[] = [scimErrorShape];
