import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as initial from './migrations/2026-11-22T1000-initial';
import * as signIn from './migrations/2026-11-22T1050-sign-in';
import * as organisation from './migrations/2026-11-22T1100-organisation';
import * as crisisCommunication from './migrations/2026-11-22T1200-crisis-communication';
import * as enterpriseIdentity from './migrations/2026-11-22T1300-enterprise-identity';
import * as groupNameSearch from './migrations/2026-11-22T1400-group-name-search';
import * as groupNameFolded from './migrations/2026-11-22T1500-group-name-folded';
import * as credentialProofBinding from './migrations/2026-11-22T1510-credential-proof-binding';
import * as groupNameBigrams from './migrations/2026-11-22T1520-group-name-bigrams';
import * as dispatchKeyNonce from './migrations/2026-11-22T1530-dispatch-key-nonce';
import * as groupNameBigramsCovering from './migrations/2026-11-22T1540-group-name-bigrams-covering';
import * as messageLanguages from './migrations/2026-11-23T1200-message-languages';
import * as personalAlarmChanges from './migrations/2026-11-23T1900-personal-alarm-changes';
import * as refreshChain from './migrations/2026-11-23T2000-refresh-chain-and-sign-in-sources';
import * as jobNotify from './migrations/2026-11-23T2000-job-notify';
import * as pendingSsoSessions from './migrations/2026-11-24T1000-pending-sso-sessions';
import * as scimNameParts from './migrations/2026-11-26T1500-scim-name-parts';
import * as passkeys from './migrations/2026-11-26T1900-passkeys';
import * as sessionFactorRule from './migrations/2026-11-26T2300-session-factor-rule';
import * as recentProof from './migrations/2026-11-28T2100-recent-proof';
import * as externalCeilingLifts from './migrations/2026-11-28T2100-external-ceiling-lifts';
import * as sessionClients from './migrations/2026-11-29T0010-session-clients';
import * as alarmRepeatWindows from './migrations/2026-11-29T0100-alarm-repeat-windows';
import * as securityEvents from './migrations/2026-11-29T0100-security-events';
import * as unusualVolume from './migrations/2026-11-29T0200-unusual-volume';

/** Every migration, by dated name. Listed in code (not read from disk) so bundling and tests see the same set. */
const migrations: Record<string, Migration> = {
  '2026-11-22T1000-initial': initial,
  '2026-11-22T1050-sign-in': signIn,
  '2026-11-22T1100-organisation': organisation,
  '2026-11-22T1200-crisis-communication': crisisCommunication,
  '2026-11-22T1300-enterprise-identity': enterpriseIdentity,
  '2026-11-22T1400-group-name-search': groupNameSearch,
  '2026-11-22T1500-group-name-folded': groupNameFolded,
  '2026-11-22T1510-credential-proof-binding': credentialProofBinding,
  '2026-11-22T1520-group-name-bigrams': groupNameBigrams,
  '2026-11-22T1530-dispatch-key-nonce': dispatchKeyNonce,
  '2026-11-22T1540-group-name-bigrams-covering': groupNameBigramsCovering,
  '2026-11-23T1200-message-languages': messageLanguages,
  '2026-11-23T1900-personal-alarm-changes': personalAlarmChanges,
  '2026-11-23T2000-refresh-chain-and-sign-in-sources': refreshChain,
  '2026-11-23T2000-job-notify': jobNotify,
  '2026-11-24T1000-pending-sso-sessions': pendingSsoSessions,
  '2026-11-26T1500-scim-name-parts': scimNameParts,
  '2026-11-26T1900-passkeys': passkeys,
  '2026-11-26T2300-session-factor-rule': sessionFactorRule,
  '2026-11-28T2100-recent-proof': recentProof,
  '2026-11-28T2100-external-ceiling-lifts': externalCeilingLifts,
  '2026-11-29T0010-session-clients': sessionClients,
  '2026-11-29T0100-alarm-repeat-windows': alarmRepeatWindows,
  '2026-11-29T0100-security-events': securityEvents,
  '2026-11-29T0200-unusual-volume': unusualVolume,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * `schema` names the PostgreSQL schema to keep the migration tables in. It must be given when the connection's
 * search_path is not the default: Kysely looks for its tables in every schema, and would otherwise find
 * another schema's.
 */
export async function migrateToLatest(db: Kysely<any>, schema?: string): Promise<void> {
  const { error, results } = await new Migrator({
    db,
    provider,
    ...(schema ? { migrationTableSchema: schema } : {}),
  }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed`, { cause: error });
  }
}
