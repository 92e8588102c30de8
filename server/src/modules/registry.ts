import type { Request } from 'express';
import type { CredentialSchemes } from '../http/dispatch';
import type { ErrorRefiner } from '../http/error-handler';
import type { ErrorShape } from '../http/error-shapes';
import type { DoorPorts } from '../http/server';
import type { HandlerMap } from '../http/operations';
import type { Services } from '../services';
import { passwordsHandlers, refineNewPasswordIssues, type PasswordsDeps } from './passwords';
import { probesHandlers, type ProbesDeps } from './probes';
import { pushTokensHandlers, type PushTokensDeps } from './push-tokens';
import { addressLockedOut, sessionsHandlers, type SessionsDeps } from './sessions';
import { apiKeyHandlers, type ApiKeysDeps } from './api-keys';
import { contactHandlers, type ContactsDeps } from './contacts';
import { groupHandlers, type GroupsDeps } from './groups';
import { meetingRoomHandlers, type MeetingRoomsDeps } from './meeting-rooms';
import { tenantHandlers, type TenantsDeps } from './tenants';
import { userHandlers, type UsersDeps } from './users';
import { externalCommunicationHandlers, type ExternalCommunicationDeps } from './external-communication';
import { personalAlarmsHandlers, type PersonalAlarmsDeps } from './personal-alarms';
import { integrationsHandlers, type IntegrationsDeps } from './integrations';
import { ssoHandlers, ssoSignIn, type SsoDeps } from './sso';
import { authenticateScimKey, scimErrorShape, scimHandlers, type ScimDeps } from './scim';
import { passkeySignIn, passkeysHandlers, type PasskeysDeps } from './passkeys';
import { accountHandlers, type AccountDeps } from './account';
import { securityEventsHandlers, type SecurityEventsDeps } from './security-events';

/**
 * What each module is handed: only the ports its deps type names (`<module>.deps.ts`), taken from the boot-time
 * object. A module that calls another's service is handed that module's ports too (its deps type extends them).
 */
function moduleDeps(s: Services) {
  const { config, db, tokens, secretKey, notifier, throttle, logger, now, jobs, outbound } = s;
  const sessions: SessionsDeps = { config, db, tokens, secretKey, notifier, throttle, logger, now };
  const groups: GroupsDeps = { config, db };
  const users: UsersDeps = { config, db, now };
  const passwords: PasswordsDeps = { ...sessions, outbound };
  const apiKeys: ApiKeysDeps = { db, now, secretKey };
  const integrations: IntegrationsDeps = { config, db, now, secretKey };
  return {
    sessions,
    passwords,
    passkeys: sessions satisfies PasskeysDeps,
    probes: sessions satisfies ProbesDeps,
    sso: { ...sessions, outbound } satisfies SsoDeps,
    pushTokens: { db, now } satisfies PushTokensDeps,
    tenants: { db } satisfies TenantsDeps,
    groups,
    users,
    meetingRooms: { db } satisfies MeetingRoomsDeps,
    apiKeys,
    contacts: { db, now } satisfies ContactsDeps,
    externalCommunication: {
      config,
      db,
      jobs,
      now,
      secretKey,
      throttle,
      notifier,
      logger,
    } satisfies ExternalCommunicationDeps,
    personalAlarms: { config, db, jobs, logger, now, throttle, notifier } satisfies PersonalAlarmsDeps,
    integrations,
    scim: { ...sessions, ...users, ...apiKeys, jobs } satisfies ScimDeps,
    account: passwords satisfies AccountDeps,
    securityEvents: { config, db, now } satisfies SecurityEventsDeps,
  };
}

/** Every operation of the contract, exactly once; built once per app (app.ts), never per request. */
export function moduleHandlers(s: Services): HandlerMap {
  const deps = moduleDeps(s);
  return {
    // Sessions hands the sign-in of single sign-on and passkeys the ports they need (theirs include its own).
    ...sessionsHandlers<SsoDeps & PasskeysDeps>(
      { ...deps.sessions, ...deps.sso, ...deps.passkeys },
      { sso: ssoSignIn, passkey: passkeySignIn },
    ),
    ...passkeysHandlers(deps.passkeys),
    ...probesHandlers(deps.probes),
    ...passwordsHandlers(deps.passwords),
    ...pushTokensHandlers(deps.pushTokens),
    ...tenantHandlers(deps.tenants),
    ...userHandlers(deps.users),
    ...groupHandlers(deps.groups),
    ...meetingRoomHandlers(deps.meetingRooms),
    ...apiKeyHandlers(deps.apiKeys),
    ...contactHandlers(deps.contacts),
    ...externalCommunicationHandlers(deps.externalCommunication),
    ...personalAlarmsHandlers(deps.personalAlarms),
    ...integrationsHandlers(deps.integrations),
    ...ssoHandlers(deps.sso),
    ...scimHandlers(deps.scim),
    ...accountHandlers(deps.account),
    ...securityEventsHandlers(deps.securityEvents),
  };
}

/** Credential schemes of the contract that a module authenticates (http/dispatch.ts), built once per app. */
export function credentialSchemes(s: Services): CredentialSchemes {
  const scim = moduleDeps(s).scim;
  return { scimApiKey: (req: Request) => authenticateScimKey(req, scim) };
}

/** Module-specific sharpening of errors before they are answered (http/error-handler.ts). */
export const errorRefiners: readonly ErrorRefiner[] = [refineNewPasswordIssues];

/** Parts of the API with their own error shape, for what is answered before Express (http/error-shapes.ts). */
export const errorShapes: readonly ErrorShape[] = [scimErrorShape];

/**
 * What the door (http/admission.ts) asks before a request takes a place: whether its bearer verifies (the tokens'
 * cache) and whether the sessions module's address lockout already refuses a client's sign-ins (one statement).
 */
export function doorPorts(s: Services): DoorPorts {
  const sessions = moduleDeps(s).sessions;
  return {
    verifyBearer: (token) => s.tokens.verify(token),
    signInLockedOut: (clientKey) => addressLockedOut(sessions, clientKey),
  };
}
