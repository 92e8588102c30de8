// What the schema keeps narrower than its SQL types say: the values a text column's check constraint allows and
// the shapes of JSON columns. The generated row types (types.ts, `npm run generate`) use these through the
// column overrides in scripts/generate-db-types.mjs; the rest of the code imports them from here.

export type GroupType = 'default' | 'hidden' | 'crossOrg' | 'coAlert';
export type GroupFunction = 'checklists' | 'documents' | 'panic_button' | 'lone_worker_timer' | 'im_ok';
export type JobStatus = 'pending' | 'done' | 'failed' | 'cancelled';
export type PersonalAlarmAction = 'create' | 'update' | 'activate' | 'deactivate';
/** 'changed': the owner's notice of one recorded change by someone else (change_id). */
export type PersonalAlarmMessageKind = 'warning' | 'alarm' | 'changed' | 'repeats';
export type DispatchSource = 'cec' | 'alarm';
export type DispatchChannel = 'email' | 'sms' | 'voice' | 'push';
export type DispatchStatus = 'queued' | 'sending' | 'sent' | 'failed';
export type SsoKind = 'oidc' | 'saml' | 'skolon';
export type PasswordTokenKind = 'set' | 'reset';
export type PushTokenType = 'ios' | 'android' | 'desktop';
export type ContactType = 'UserSupport' | 'DataProtectionOfficer';
export type ApiKeyScope = 'scim';

/** A session's factors: each factor verified or not yet. */
export type SessionFactors = Record<string, 'verified' | 'unverified'>;
/** A member's permission flags in a tenant (the shape of the UserPermissions schema). */
export type MembershipPermissions = Record<string, Record<string, boolean | number | null>>;
export type JobPayload = Record<string, unknown>;
/** One change of a personal alarm: each changed field from → to. */
export type PersonalAlarmChangeSet = Record<string, { from?: unknown; to?: unknown }>;

/** What a security event records (modules/security-events; the SecurityEventKind schema of the contract). */
export type SecurityEventKind =
  | 'sign_in_succeeded'
  | 'sign_in_failed'
  | 'sign_in_locked_out'
  | 'sign_in_stepped_up'
  | 'second_factor_failed'
  | 'passkey_added'
  | 'passkey_removed'
  | 'password_changed'
  | 'password_reset'
  | 'sessions_ended'
  | 'permission_granted'
  | 'permission_revoked'
  | 'member_provisioned'
  | 'member_updated'
  | 'member_deactivated'
  | 'member_removed';
export type SecurityEventOutcome = 'succeeded' | 'failed' | 'refused';
/** Who did it: the account's user, another user (an administrator), a directory, the operator tool, the system. */
export type SecurityEventActor = 'self' | 'user' | 'scim' | 'operator' | 'system';
/** What else an event says; never a secret (the SecurityEvent schema's `details`). */
export interface SecurityEventDetails {
  method?: string;
  reason?: string;
  count?: number;
  permission?: string;
  passkeyName?: string;
}
