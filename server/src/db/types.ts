// Row types of the tables, as Kysely sees them. Migrations own the DDL; keep the two in step.
import type { ColumnType, Generated, JSONColumnType } from 'kysely';

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
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface MembershipsTable {
  tenant_id: number;
  user_id: number;
  /** The user's permission flags in this tenant (the shape of the UserPermissions schema). */
  permissions: JSONColumnType<Record<string, Record<string, boolean | number | null>>>;
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
  user_id: number;
  factors: JSONColumnType<Record<string, 'verified' | 'unverified'>>;
  created_at: CreatedAt;
  last_refreshed_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
  revoked_reason: string | null;
}

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
}
