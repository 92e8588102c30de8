// Row types of the tables, as Kysely sees them. Migrations own the DDL; keep the two in step.
import type { ColumnType, Generated, GeneratedAlways, JSONColumnType } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface TenantsTable {
  id: Generated<number>;
  name: string;
  logo_url: string;
  website_url: string;
  may_any_user_activate_im_ok: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: CreatedAt;
}

export interface AccountsTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  created_at: CreatedAt;
}

export interface UsersTable {
  id: Generated<number>;
  name: string;
  title: string | null;
  email: string;
  email_hash: string;
  password_hash: string | null;
  phone_primary: string | null;
  phone_secondary: string | null;
  image_url: string | null;
  otp_email_enabled: ColumnType<boolean, boolean | undefined, boolean>;
  otp_sms_enabled: ColumnType<boolean, boolean | undefined, boolean>;
  last_access_at: NullableTimestamp;
  unavailable_until: NullableTimestamp;
  /** Set while every membership of the user is deactivated (SCIM): the user cannot sign in. */
  deactivated_at: NullableTimestamp;
  /** The name's parts as the tenant's directory (SCIM) sent them; `name` is derived from them. */
  given_name: ColumnType<string | null, string | null | undefined, string | null>;
  family_name: ColumnType<string | null, string | null | undefined, string | null>;
  name_formatted: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface MembershipsTable {
  tenant_id: number;
  user_id: number;
  /** The user's permission flags in this tenant (the shape of the UserPermissions schema). */
  permissions: JSONColumnType<Record<string, Record<string, boolean | number | null>>>;
  /** Tenant administrator (api keys, contacts, SSO settings, hidden groups); added by the organisation migration. */
  is_admin: ColumnType<boolean, boolean | undefined, boolean>;
  /** False once the tenant's directory (SCIM) deactivated the user here; added by the enterprise identity migration. */
  active: ColumnType<boolean, boolean | undefined, boolean>;
  scim_external_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
}

export interface UserSettingsTable {
  user_id: number;
  receive_emails: boolean;
  notify_checklists: boolean;
  notify_documents: boolean;
  preferred_language: string | null;
}

export interface SessionsTable {
  id: string;
  /** Null while a single sign-on session waits for its identity provider (see sso_tenant_id). */
  user_id: number | null;
  /** Single sign-on: the tenant whose identity provider the session was opened for (the email domain's). */
  sso_tenant_id: ColumnType<number | null, number | null | undefined, number | null>;
  factors: JSONColumnType<Record<string, 'verified' | 'unverified'>>;
  created_at: CreatedAt;
  last_refreshed_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
  revoked_reason: string | null;
  /** The current refresh token's keyed hash, its immediate predecessor's and when that was superseded. */
  refresh_token_hash: string | null;
  previous_refresh_token_hash: string | null;
  previous_superseded_at: NullableTimestamp;
}

/** Superseded refresh tokens, kept 7 days to recognise their reuse. */
export interface RefreshTokensTable {
  token_hash: string;
  session_id: string;
  created_at: CreatedAt;
  superseded_at: NullableTimestamp;
}

export interface ChallengesTable {
  id: string;
  session_id: string;
  kind: string;
  secret_hash: string | null;
  sent_to: string | null;
  valid_until: Timestamp;
  resend_unavailable_until: Timestamp;
  attempts: ColumnType<number, number | undefined, number>;
  consumed_at: NullableTimestamp;
  created_at: CreatedAt;
}

export interface OutboxTable {
  id: Generated<number>;
  channel: string;
  recipient: string;
  subject: string | null;
  body: string;
  created_at: CreatedAt;
}

export interface SignInSourcesTable {
  email_hash: string;
  source_hash: string;
  last_seen_at: Timestamp;
}

export interface ThrottlesTable {
  key: string;
  count: number;
  window_ends_at: Timestamp;
  blocked_until: NullableTimestamp;
}

export interface VerifiedCredentialsTable {
  key: string;
  /** HMAC of the user id and the stored password hash the proof was made against. */
  binding: string;
  expires_at: Timestamp;
}

export interface PasswordTokensTable {
  token_hash: string;
  user_id: number;
  kind: 'set' | 'reset';
  created_at: CreatedAt;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface CoalertCodesTable {
  /** What an operator lists and revokes the code by (the code itself is stored only as its hash). */
  id: Generated<number>;
  label: ColumnType<string, string | undefined, string>;
  code_hash: string;
  user_id: number;
  usage_limit: number;
  usage_count: ColumnType<number, number | undefined, number>;
  expires_at: NullableTimestamp;
  created_at: CreatedAt;
}

export interface PushTokensTable {
  token: string;
  user_id: number;
  type: 'ios' | 'android' | 'desktop';
  app_version: string;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

// Organisation (migration 2026-11-22T1100-organisation).
export type GroupType = 'default' | 'hidden' | 'crossOrg' | 'coAlert';
export type GroupFunction = 'checklists' | 'documents' | 'panic_button' | 'lone_worker_timer' | 'im_ok';

export interface GroupsTable {
  id: Generated<number>;
  /** The owning tenant (the account's); partner tenants of crossOrg groups are in group_tenants. */
  tenant_id: number;
  account_id: number;
  name: string;
  /** lower(name), kept by the database (generated column): what `name[match]` and list order compare. */
  name_folded: GeneratedAlways<string>;
  type: ColumnType<GroupType, GroupType | undefined, GroupType>;
  /** Image URL template with `{size}` (small, medium, large); null when the group has no image. */
  image_url: string | null;
  /** Kept by a trigger on group_members. */
  members_count: ColumnType<number, never, never>;
  created_at: CreatedAt;
}

export interface GroupTenantsTable {
  tenant_id: number;
  group_id: number;
  /** The owner's row (added by a trigger when the group is created); partner tenants have false. */
  is_owner: ColumnType<boolean, boolean | undefined, never>;
}

export interface GroupFunctionsTable {
  group_id: number;
  function: GroupFunction;
}

export interface GroupMembersTable {
  group_id: number;
  user_id: number;
  /** The tenant through which the user is a member (one of the group's tenants). */
  tenant_id: number;
  is_admin: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: CreatedAt;
}

export interface MeetingRoomsTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  url: string;
  description: ColumnType<string, string | undefined, string>;
  is_active: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: CreatedAt;
}

export interface ApiKeysTable {
  id: string;
  tenant_id: number;
  name: string;
  /** keyedHash(secretKey, key); the key itself is never stored. */
  key_hash: string;
  scope: ColumnType<'scim', 'scim' | undefined, never>;
  created_by: number | null;
  created_at: CreatedAt;
  last_used_at: NullableTimestamp;
}

export interface ContactsTable {
  id: Generated<number>;
  tenant_id: number;
  account_id: number;
  name: string;
  title: string;
  email: string;
  phone_number: string;
  type: 'UserSupport' | 'DataProtectionOfficer';
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

// Crisis communication (migration 2026-11-22T1200-crisis-communication).
export type JobStatus = 'pending' | 'done' | 'failed' | 'cancelled';

export interface JobsTable {
  id: Generated<number>;
  kind: string;
  payload: JSONColumnType<Record<string, unknown>>;
  dedupe_key: string;
  status: ColumnType<JobStatus, JobStatus | undefined, JobStatus>;
  run_at: Timestamp;
  attempts: ColumnType<number, number | undefined, number>;
  max_attempts: ColumnType<number, number | undefined, number>;
  locked_until: NullableTimestamp;
  /** The claim that holds the lease (unique per claim), so only that claim may complete the job. */
  locked_by: string | null;
  last_error: string | null;
  created_at: CreatedAt;
  finished_at: NullableTimestamp;
}

export interface CecContactsTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  title: string | null;
  email: string | null;
  phone: string | null;
  /** The contact's language for what wraps a message (sv, en, …); null: the sender's language. */
  language: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
}

export interface CecGroupsTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  created_at: CreatedAt;
}

export interface CecGroupMembersTable {
  group_id: number;
  contact_id: number;
  tenant_id: number;
}

export interface CecTemplatesTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  content: string;
  created_at: CreatedAt;
}

export interface CecSenderSettingsTable {
  tenant_id: number;
  email_sender_name: string;
  sms_sender_id: string;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface CecMessagesTable {
  id: Generated<number>;
  tenant_id: number;
  sender_user_id: number | null;
  content: string;
  is_email: boolean;
  is_sms: boolean;
  has_voice_call: boolean;
  has_confirmation_link: boolean;
  email_sender_name: string;
  sms_sender_id: string;
  sent_at: Timestamp;
  recipients_resolved_at: NullableTimestamp;
}

export interface CecMessageGroupsTable {
  message_id: number;
  group_id: number;
  group_name: string;
}

export interface CecMessageRecipientsTable {
  id: Generated<number>;
  message_id: number;
  contact_id: number;
  name: string;
  title: string | null;
  email: string | null;
  phone: string | null;
  /** bigint[]: elements may arrive as strings; convert with Number(). */
  group_ids: ColumnType<(number | string)[], number[], number[]>;
}

export interface PersonalAlarmLocationsTable {
  id: Generated<number>;
  tenant_id: number;
  latitude: number;
  longitude: number;
  created_at: CreatedAt;
}

export interface PersonalAlarmsTable {
  id: Generated<number>;
  tenant_id: number;
  user_id: number;
  device_id: string;
  text: string;
  dispatch_at: Timestamp;
  active: boolean;
  one_minute_warning: boolean;
  location_id: number | null;
  message_id: number | null;
  /** Changes whenever the timer is armed, moved or stopped; jobs made for an older version do nothing. */
  version: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PersonalAlarmRecipientUsersTable {
  alarm_id: number;
  user_id: number;
}

export interface PersonalAlarmRecipientGroupsTable {
  alarm_id: number;
  group_id: number;
}

export interface PersonalAlarmMessagesTable {
  id: Generated<number>;
  tenant_id: number;
  alarm_id: number;
  /** 'changed': the owner's notice of one recorded change by someone else (change_id). */
  kind: 'warning' | 'alarm' | 'changed';
  version: number;
  change_id: ColumnType<number | null, number | null | undefined, never>;
  created_at: Timestamp;
}

export type PersonalAlarmAction = 'create' | 'update' | 'activate' | 'deactivate';

/** One change of a personal alarm: who (null once deleted), when, and each changed field from → to. */
export interface PersonalAlarmChangesTable {
  id: Generated<number>;
  tenant_id: number;
  alarm_id: number;
  actor_id: number | null;
  action: PersonalAlarmAction;
  changes: JSONColumnType<Record<string, { from?: unknown; to?: unknown }>>;
  created_at: Timestamp;
}

export type DispatchSource = 'cec' | 'alarm';
export type DispatchChannel = 'email' | 'sms' | 'voice' | 'push';
export type DispatchStatus = 'queued' | 'sending' | 'sent' | 'failed';

export interface DispatchesTable {
  id: Generated<number>;
  tenant_id: number;
  source: DispatchSource;
  /** cec_messages.id or personal_alarm_messages.id, by source. */
  message_id: number;
  /** cec_message_recipients.id or users.id, by source. */
  recipient_id: number;
  channel: DispatchChannel;
  sent_to: string;
  status: ColumnType<DispatchStatus, DispatchStatus | undefined, DispatchStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp;
  /** The job claim sending it; a row left 'sending' by an older claim was abandoned by a stopped worker. */
  locked_by: string | null;
  sent_at: NullableTimestamp;
  last_error: string | null;
  read_at: NullableTimestamp;
  /** SHA-256 of the confirmation token (the token itself is derived from the id and key_nonce with the secret key). */
  confirmation_hash: string | null;
  /** Random characters in the dispatch's idempotency key, so a reused id never repeats a key. */
  key_nonce: Generated<string>;
  /** The language the recipient gets the message in, chosen when the dispatch was made; null: English. */
  language: ColumnType<string | null, string | null | undefined, string | null>;
}

// Enterprise identity (migration 2026-11-22T1300-enterprise-identity).
export type SsoKind = 'oidc' | 'saml' | 'skolon';

export interface SsoDomainsTable {
  domain: string;
  tenant_id: number;
  kind: SsoKind;
  created_at: CreatedAt;
}

export interface OidcSettingsTable {
  tenant_id: number;
  client_id: string;
  client_secret_encrypted: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  issuer: string;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface SamlSettingsTable {
  tenant_id: number;
  entry_point: string;
  idp_issuer: string | null;
  idp_certificates: string[];
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface SsoChallengesTable {
  id: string;
  session_id: string;
  tenant_id: number;
  kind: SsoKind;
  redirect_uri: string;
  state: string | null;
  nonce: string | null;
  code_challenge: string | null;
  saml_request_id: string | null;
  expires_at: Timestamp;
  answered_at: NullableTimestamp;
  asserted_user_id: number | null;
  code_hash: string | null;
  code_expires_at: NullableTimestamp;
  consumed_at: NullableTimestamp;
  created_at: CreatedAt;
}

export interface SamlAssertionsTable {
  tenant_id: number;
  assertion_id: string;
  expires_at: Timestamp;
}

export interface ScimGroupsTable {
  group_id: number;
  tenant_id: number;
  external_id: string | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Every pair of adjacent characters of each group's folded name, with what a list reads (kept by a trigger on groups). */
export interface GroupNameBigramsTable {
  tenant_id: number;
  gram: string;
  name_folded: string;
  group_id: number;
  type: GroupType;
}

export interface Database {
  tenants: TenantsTable;
  accounts: AccountsTable;
  users: UsersTable;
  memberships: MembershipsTable;
  user_settings: UserSettingsTable;
  sessions: SessionsTable;
  refresh_tokens: RefreshTokensTable;
  challenges: ChallengesTable;
  outbox: OutboxTable;
  throttles: ThrottlesTable;
  sign_in_sources: SignInSourcesTable;
  verified_credentials: VerifiedCredentialsTable;
  password_tokens: PasswordTokensTable;
  coalert_codes: CoalertCodesTable;
  push_tokens: PushTokensTable;
  groups: GroupsTable;
  group_name_bigrams: GroupNameBigramsTable;
  group_tenants: GroupTenantsTable;
  group_functions: GroupFunctionsTable;
  group_members: GroupMembersTable;
  meeting_rooms: MeetingRoomsTable;
  api_keys: ApiKeysTable;
  contacts: ContactsTable;
  jobs: JobsTable;
  cec_contacts: CecContactsTable;
  cec_groups: CecGroupsTable;
  cec_group_members: CecGroupMembersTable;
  cec_templates: CecTemplatesTable;
  cec_sender_settings: CecSenderSettingsTable;
  cec_messages: CecMessagesTable;
  cec_message_groups: CecMessageGroupsTable;
  cec_message_recipients: CecMessageRecipientsTable;
  personal_alarm_locations: PersonalAlarmLocationsTable;
  personal_alarms: PersonalAlarmsTable;
  personal_alarm_recipient_users: PersonalAlarmRecipientUsersTable;
  personal_alarm_recipient_groups: PersonalAlarmRecipientGroupsTable;
  personal_alarm_messages: PersonalAlarmMessagesTable;
  personal_alarm_changes: PersonalAlarmChangesTable;
  dispatches: DispatchesTable;
  sso_domains: SsoDomainsTable;
  oidc_settings: OidcSettingsTable;
  saml_settings: SamlSettingsTable;
  sso_challenges: SsoChallengesTable;
  saml_assertions: SamlAssertionsTable;
  scim_groups: ScimGroupsTable;
  passkeys: PasskeysTable;
  passkey_challenges: PasskeyChallengesTable;
  passkey_events: PasskeyEventsTable;
}

export interface PasskeysTable {
  id: string;
  user_id: number;
  /** The WebAuthn credential id, base64url. */
  credential_id: string;
  /** The credential's public key, COSE-encoded, as the authenticator gave it. */
  public_key: Uint8Array;
  /** The last signature counter seen (bigint in SQL; counters fit in 32 bits). */
  counter: ColumnType<string | number, number | undefined, number>;
  transports: ColumnType<string[], string[] | undefined, string[]>;
  aaguid: string;
  name: string;
  /** simplewebauthn's credentialDeviceType: singleDevice or multiDevice (synced). */
  device_type: string;
  backed_up: ColumnType<boolean, boolean | undefined, boolean>;
  /** Set when a counter went backwards: the passkey is refused from then on. */
  suspicious_at: NullableTimestamp;
  created_at: CreatedAt;
  last_used_at: NullableTimestamp;
}

export interface PasskeyChallengesTable {
  /** 32 random bytes, base64url. */
  challenge: string;
  purpose: 'registration' | 'authentication';
  user_id: number | null;
  expires_at: Timestamp;
  created_at: CreatedAt;
}

export interface PasskeyEventsTable {
  id: Generated<number>;
  user_id: number;
  passkey_id: string;
  kind: 'added' | 'removed' | 'suspicious';
  session_id: string | null;
  source_hash: string | null;
  at: ColumnType<Date, Date | string | undefined, never>;
}
