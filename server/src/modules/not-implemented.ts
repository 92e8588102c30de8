// Operations whose feature is not built yet. Each feature removes its operations from this list and adds real
// handlers; the exhaustive handler map in registry.ts keeps the two in step.
import { ApiError } from '../errors';
import type { OperationId, PartialHandlers } from '../http/operations';

const pending = [
  'createSession',
  'refreshSession',
  'verifySessionChallenge',
  'deleteSession',
  'createSessionChallenge',
  'probeHash',
  'probeIdpDomain',
  'putPushToken',
  'deletePushToken',
  'listTenants',
  'requestPasswordReset',
  'getUser',
  'updateUser',
  'getUserSettings',
  'updateUserSettings',
  'getUserPermissions',
  'getPasswordSetToken',
  'setPassword',
  'getPasswordResetToken',
  'resetPassword',
  'listGroups',
  'getGroup',
  'listGroupMembers',
  'listMeetingRooms',
  'listApiKeys',
  'createApiKey',
  'deleteApiKey',
  'listContacts',
  'createContact',
  'updateContact',
  'deleteContact',
  'listCecGroups',
  'listCecTemplates',
  'listCecMessages',
  'sendCecMessage',
  'getCecMessage',
  'listCecMessageRecipients',
  'createPersonalAlarm',
  'listPersonalAlarms',
  'getPersonalAlarm',
  'updatePersonalAlarm',
  'activatePersonalAlarm',
  'deactivatePersonalAlarm',
  'getOidcSettings',
  'putOidcSettings',
  'getScimServiceProviderConfig',
  'getSamlServiceProviderMetadata',
  'consumeSamlAssertion',
] as const satisfies readonly OperationId[];

export type PendingOperation = (typeof pending)[number];

const notImplemented = async (): Promise<never> => {
  throw new ApiError('NOT_IMPLEMENTED');
};

export const notImplementedHandlers = Object.fromEntries(pending.map((id) => [id, notImplemented])) as unknown as PartialHandlers<PendingOperation>;
