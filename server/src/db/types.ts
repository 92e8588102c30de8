// Generated from the migrations by `npm run generate` (scripts/db-types.ts). Do not edit by hand.
import type {
  ApiKeyScope,
  ContactType,
  DispatchChannel,
  DispatchSource,
  DispatchStatus,
  GroupFunction,
  GroupType,
  JobPayload,
  JobStatus,
  MembershipPermissions,
  PasswordTokenKind,
  PersonalAlarmAction,
  PersonalAlarmChangeSet,
  PersonalAlarmMessageKind,
  PushTokenType,
  SecurityEventActor,
  SecurityEventDetails,
  SecurityEventKind,
  SecurityEventOutcome,
  SessionFactors,
  SsoKind,
} from './column-types';
import type { ColumnType, GeneratedAlways, JSONColumnType } from 'kysely';

export type Generated<T> =
  T extends ColumnType<infer S, infer I, infer U> ? ColumnType<S, I | undefined, U> : ColumnType<T, T | undefined, T>;

export type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface Accounts {
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  name: string;
  tenant_id: number;
}

export interface ApiKeys {
  created_at: Generated<Timestamp>;
  created_by: number | null;
  id: string;
  key_hash: string;
  last_used_at: Timestamp | null;
  name: string;
  scope: Generated<ApiKeyScope>;
  tenant_id: number;
}

export interface CecCeilingLifts {
  created_at: Timestamp;
  id: Generated<number>;
  lifted_by: string;
  lifted_by_user_id: number | null;
  lifted_until: Timestamp;
  reason: string | null;
  tenant_id: number;
}

export interface CecContacts {
  created_at: Generated<Timestamp>;
  email: string | null;
  id: Generated<number>;
  language: string | null;
  name: string;
  phone: string | null;
  tenant_id: number;
  title: string | null;
}

export interface CecGroupMembers {
  contact_id: number;
  group_id: number;
  tenant_id: number;
}

export interface CecGroups {
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  name: string;
  tenant_id: number;
}

export interface CecMessageGroups {
  group_id: number;
  group_name: string;
  message_id: number;
}

export interface CecMessageRecipients {
  contact_id: number;
  email: string | null;
  group_ids: ColumnType<(number | string)[], number[], number[]>;
  id: Generated<number>;
  message_id: number;
  name: string;
  phone: string | null;
  title: string | null;
}

export interface CecMessages {
  content: string;
  email_sender_name: string;
  has_confirmation_link: boolean;
  has_voice_call: boolean;
  id: Generated<number>;
  is_email: boolean;
  is_sms: boolean;
  recipients_resolved_at: Timestamp | null;
  sender_user_id: number | null;
  sent_at: Timestamp;
  sms_sender_id: string;
  tenant_id: number;
}

export interface CecSenderSettings {
  email_sender_name: string;
  sms_sender_id: string;
  tenant_id: number;
  updated_at: Generated<Timestamp>;
}

export interface CecTemplates {
  content: string;
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  name: string;
  tenant_id: number;
}

export interface Challenges {
  attempts: Generated<number>;
  consumed_at: Timestamp | null;
  created_at: Generated<Timestamp>;
  id: string;
  kind: string;
  resend_unavailable_until: Timestamp;
  secret_hash: string | null;
  sent_to: string | null;
  session_id: string;
  valid_until: Timestamp;
}

export interface CoalertCodes {
  code_hash: string;
  created_at: Generated<Timestamp>;
  expires_at: Timestamp | null;
  id: Generated<number>;
  label: Generated<string>;
  usage_count: Generated<number>;
  usage_limit: number;
  user_id: number;
}

export interface Contacts {
  account_id: number;
  created_at: Generated<Timestamp>;
  email: string;
  id: Generated<number>;
  name: string;
  phone_number: string;
  tenant_id: number;
  title: Generated<string>;
  type: ContactType;
  updated_at: Generated<Timestamp>;
}

export interface Dispatches {
  attempts: Generated<number>;
  channel: DispatchChannel;
  confirmation_hash: string | null;
  id: Generated<number>;
  key_nonce: Generated<string>;
  language: string | null;
  last_error: string | null;
  locked_by: string | null;
  message_id: number;
  next_attempt_at: Timestamp;
  read_at: Timestamp | null;
  recipient_id: number;
  sent_at: Timestamp | null;
  sent_to: string;
  source: DispatchSource;
  status: Generated<DispatchStatus>;
  tenant_id: number;
}

export interface GroupFunctions {
  function: GroupFunction;
  group_id: number;
}

export interface GroupMembers {
  created_at: Generated<Timestamp>;
  group_id: number;
  is_admin: Generated<boolean>;
  tenant_id: number;
  user_id: number;
}

export interface GroupNameBigrams {
  gram: string;
  group_id: number;
  name_folded: string;
  tenant_id: number;
  type: GroupType;
}

export interface Groups {
  account_id: number;
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  image_url: string | null;
  members_count: Generated<number>;
  name: string;
  name_folded: GeneratedAlways<string>;
  tenant_id: number;
  type: Generated<GroupType>;
}

export interface GroupTenants {
  group_id: number;
  is_owner: Generated<boolean>;
  tenant_id: number;
}

export interface Jobs {
  attempts: Generated<number>;
  created_at: Generated<Timestamp>;
  dedupe_key: string;
  finished_at: Timestamp | null;
  id: Generated<number>;
  kind: string;
  last_error: string | null;
  locked_by: string | null;
  locked_until: Timestamp | null;
  max_attempts: Generated<number>;
  payload: JSONColumnType<JobPayload>;
  run_at: Timestamp;
  status: Generated<JobStatus>;
}

export interface MeetingRooms {
  created_at: Generated<Timestamp>;
  description: Generated<string>;
  id: Generated<number>;
  is_active: Generated<boolean>;
  name: string;
  tenant_id: number;
  url: string;
}

export interface Memberships {
  active: Generated<boolean>;
  created_at: Generated<Timestamp>;
  is_admin: Generated<boolean>;
  permissions: JSONColumnType<MembershipPermissions>;
  scim_external_id: string | null;
  tenant_id: number;
  user_id: number;
}

export interface OidcSettings {
  authorization_endpoint: string;
  client_id: string;
  client_secret_encrypted: string;
  created_at: Generated<Timestamp>;
  issuer: string;
  jwks_uri: string;
  tenant_id: number;
  token_endpoint: string;
  updated_at: Generated<Timestamp>;
}

export interface Outbox {
  body: string;
  channel: string;
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  recipient: string;
  subject: string | null;
}

export interface PasskeyChallenges {
  challenge: string;
  created_at: Generated<Timestamp>;
  expires_at: Timestamp;
  purpose: string;
  user_id: number | null;
}

export interface PasskeyEvents {
  at: Generated<Timestamp>;
  id: Generated<number>;
  kind: string;
  passkey_id: string;
  session_id: string | null;
  source_hash: string | null;
  user_id: number;
}

export interface Passkeys {
  aaguid: string;
  backed_up: Generated<boolean>;
  counter: Generated<number>;
  created_at: Generated<Timestamp>;
  credential_id: string;
  device_type: string;
  id: string;
  last_used_at: Timestamp | null;
  name: string;
  public_key: Buffer;
  removal_expires_at: Timestamp | null;
  removal_token_hash: string | null;
  suspicious_at: Timestamp | null;
  transports: Generated<string[]>;
  user_id: number;
}

export interface PasswordTokens {
  created_at: Generated<Timestamp>;
  expires_at: Timestamp;
  kind: PasswordTokenKind;
  token_hash: string;
  used_at: Timestamp | null;
  user_id: number;
}

export interface PersonalAlarmChanges {
  action: PersonalAlarmAction;
  actor_id: number | null;
  alarm_id: number;
  changes: JSONColumnType<PersonalAlarmChangeSet>;
  created_at: Timestamp;
  id: Generated<number>;
  tenant_id: number;
}

export interface PersonalAlarmLocations {
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  latitude: number;
  longitude: number;
  tenant_id: number;
}

export interface PersonalAlarmMessages {
  alarm_id: number;
  change_id: number | null;
  created_at: Timestamp;
  id: Generated<number>;
  kind: PersonalAlarmMessageKind;
  repeat_generation: number | null;
  repeat_window_id: number | null;
  repeats: number | null;
  repeats_since: Timestamp | null;
  tenant_id: number;
  version: number;
}

export interface PersonalAlarmRecipientGroups {
  alarm_id: number;
  group_id: number;
}

export interface PersonalAlarmRecipientUsers {
  alarm_id: number;
  user_id: number;
}

export interface PersonalAlarmRepeatWindows {
  ends_at: Timestamp;
  generation: Generated<number>;
  id: Generated<number>;
  owner_id: number;
  recipients: string;
  repeats: Generated<number>;
  tenant_id: number;
}

export interface PersonalAlarms {
  active: boolean;
  created_at: Timestamp;
  device_id: string;
  dispatch_at: Timestamp;
  id: Generated<number>;
  location_id: number | null;
  message_id: number | null;
  one_minute_warning: boolean;
  tenant_id: number;
  text: string;
  updated_at: Timestamp;
  user_id: number;
  version: Generated<number>;
}

export interface PushTokens {
  app_version: string;
  token: string;
  type: PushTokenType;
  updated_at: Generated<Timestamp>;
  user_id: number;
}

export interface RefreshTokens {
  created_at: Generated<Timestamp>;
  session_id: string;
  superseded_at: Timestamp | null;
  token_hash: string;
}

export interface SamlAssertions {
  assertion_id: string;
  expires_at: Timestamp;
  tenant_id: number;
}

export interface SamlSettings {
  created_at: Generated<Timestamp>;
  entry_point: string;
  idp_certificates: string[];
  idp_issuer: string | null;
  tenant_id: number;
  updated_at: Generated<Timestamp>;
}

export interface ScimGroups {
  created_at: Generated<Timestamp>;
  external_id: string | null;
  group_id: number;
  tenant_id: number;
  updated_at: Generated<Timestamp>;
}

export interface SecurityEvents {
  actor_type: SecurityEventActor;
  actor_user_id: number | null;
  at: Timestamp;
  details: JSONColumnType<SecurityEventDetails, string | undefined, string>;
  id: Generated<number>;
  kind: SecurityEventKind;
  network: string | null;
  outcome: SecurityEventOutcome;
  region: string;
  tenant_id: number | null;
  user_agent: string | null;
  user_id: number | null;
}

export interface Sessions {
  created_at: Generated<Timestamp>;
  expires_at: Timestamp;
  factors: JSONColumnType<SessionFactors>;
  id: string;
  last_refreshed_at: Timestamp;
  network: string | null;
  previous_refresh_token_hash: string | null;
  previous_superseded_at: Timestamp | null;
  proven_at: Timestamp | null;
  refresh_token_hash: string | null;
  revoked_at: Timestamp | null;
  revoked_reason: string | null;
  sso_tenant_id: number | null;
  user_agent: string | null;
  user_id: number | null;
}

export interface SignInSources {
  email_hash: string;
  last_seen_at: Timestamp;
  source_hash: string;
}

export interface SsoChallenges {
  answered_at: Timestamp | null;
  asserted_user_id: number | null;
  code_challenge: string | null;
  code_expires_at: Timestamp | null;
  code_hash: string | null;
  consumed_at: Timestamp | null;
  created_at: Generated<Timestamp>;
  expires_at: Timestamp;
  id: string;
  kind: SsoKind;
  nonce: string | null;
  redirect_uri: string;
  saml_request_id: string | null;
  session_id: string;
  state: string | null;
  tenant_id: number;
}

export interface SsoDomains {
  created_at: Generated<Timestamp>;
  domain: string;
  kind: SsoKind;
  tenant_id: number;
}

export interface Tenants {
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  logo_url: string;
  may_any_user_activate_im_ok: Generated<boolean>;
  name: string;
  website_url: string;
}

export interface TenantVolume {
  count: number;
  hour: Timestamp;
  kind: string;
  tenant_id: number;
}

export interface TenantVolumeNotices {
  administrators: number | null;
  count: number;
  created_at: Timestamp;
  hour: Timestamp;
  id: Generated<number>;
  kind: string;
  sent_at: Timestamp | null;
  tenant_id: number;
  usual: number;
}

export interface Throttles {
  blocked_until: Timestamp | null;
  count: number;
  key: string;
  window_ends_at: Timestamp;
}

export interface Users {
  created_at: Generated<Timestamp>;
  deactivated_at: Timestamp | null;
  email: string;
  email_hash: string;
  family_name: string | null;
  given_name: string | null;
  id: Generated<number>;
  image_url: string | null;
  last_access_at: Timestamp | null;
  name: string;
  name_formatted: string | null;
  otp_email_enabled: Generated<boolean>;
  otp_sms_enabled: Generated<boolean>;
  password_hash: string | null;
  phone_primary: string | null;
  phone_secondary: string | null;
  title: string | null;
  unavailable_until: Timestamp | null;
  updated_at: Generated<Timestamp>;
}

export interface UserSettings {
  notify_checklists: Generated<boolean>;
  notify_documents: Generated<boolean>;
  preferred_language: string | null;
  receive_emails: Generated<boolean>;
  user_id: number;
}

export interface VerifiedCredentials {
  binding: string;
  expires_at: Timestamp;
  key: string;
}

export interface DB {
  accounts: Accounts;
  api_keys: ApiKeys;
  cec_ceiling_lifts: CecCeilingLifts;
  cec_contacts: CecContacts;
  cec_group_members: CecGroupMembers;
  cec_groups: CecGroups;
  cec_message_groups: CecMessageGroups;
  cec_message_recipients: CecMessageRecipients;
  cec_messages: CecMessages;
  cec_sender_settings: CecSenderSettings;
  cec_templates: CecTemplates;
  challenges: Challenges;
  coalert_codes: CoalertCodes;
  contacts: Contacts;
  dispatches: Dispatches;
  group_functions: GroupFunctions;
  group_members: GroupMembers;
  group_name_bigrams: GroupNameBigrams;
  group_tenants: GroupTenants;
  groups: Groups;
  jobs: Jobs;
  meeting_rooms: MeetingRooms;
  memberships: Memberships;
  oidc_settings: OidcSettings;
  outbox: Outbox;
  passkey_challenges: PasskeyChallenges;
  passkey_events: PasskeyEvents;
  passkeys: Passkeys;
  password_tokens: PasswordTokens;
  personal_alarm_changes: PersonalAlarmChanges;
  personal_alarm_locations: PersonalAlarmLocations;
  personal_alarm_messages: PersonalAlarmMessages;
  personal_alarm_recipient_groups: PersonalAlarmRecipientGroups;
  personal_alarm_recipient_users: PersonalAlarmRecipientUsers;
  personal_alarm_repeat_windows: PersonalAlarmRepeatWindows;
  personal_alarms: PersonalAlarms;
  push_tokens: PushTokens;
  refresh_tokens: RefreshTokens;
  saml_assertions: SamlAssertions;
  saml_settings: SamlSettings;
  scim_groups: ScimGroups;
  security_events: SecurityEvents;
  sessions: Sessions;
  sign_in_sources: SignInSources;
  sso_challenges: SsoChallenges;
  sso_domains: SsoDomains;
  tenant_volume: TenantVolume;
  tenant_volume_notices: TenantVolumeNotices;
  tenants: Tenants;
  throttles: Throttles;
  user_settings: UserSettings;
  users: Users;
  verified_credentials: VerifiedCredentials;
}
