// The account's self-service and an administrator's view of a member's sessions (issue 44):
// - a user lists her live sessions and ends all but the one she uses (ending one is `DELETE /sessions/{id}`);
// - she changes her password with the current one as the proof (checked as a sign-in checks it: the hashing line and
//   the lockouts; docs/decisions/2026-11-29-account-self-service.md), and every other session ends;
// - an administrator lists a member's sessions and ends them, only when she administers every tenant the member
//   belongs to: a session is the user's, and acts in all of them.
// Every ending and every change is recorded as a security event in the transaction that makes it.
import type { components } from '../../../../generated/core-api';
import { ApiError } from '../../errors';
import { dateTime } from '../../messages/formats';
import { languageForUser } from '../../messages/recipient-language';
import { passwordChangedEmail } from '../../messages/sign-in-messages';
import { hashPassword } from '../../security/passwords';
import type { AuthContext } from '../../shared/caller';
import { pageOf, pageRows, type Page, type PageParams } from '../../shared/paging';
import { requireTenantAdmin } from '../../shared/tenant-access';
import { refuseBreachedPassword } from '../passwords';
import { recordSecurityEvent, type EventClient } from '../security-events';
import { reauthenticateWithPassword } from '../sessions';
import type { AccountDeps } from './account.deps';
import {
  endSessions,
  isSessionOf,
  selectAccount,
  selectLiveSessions,
  selectMemberTenants,
  updatePasswordHash,
  type SessionRow,
} from './account.repository';
import { deviceOf } from './device';

type ActiveSession = components['schemas']['ActiveSession'];
type SignedInWith = ActiveSession['signedInWith'][number];

/** The factors in the order a sign-in proves them (the contract's `signedInWith`). */
const factorOrder: SignedInWith[] = ['password', 'otpEmail', 'otpSms', 'passkey', 'coalert', 'oidc', 'saml', 'skolon'];

export function toActiveSession(row: SessionRow, currentSessionId: string): ActiveSession {
  return {
    id: row.id,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_refreshed_at.toISOString(),
    current: row.id === currentSessionId,
    signedInWith: factorOrder.filter((factor) => row.factors[factor] === 'verified'),
    device: deviceOf(row.user_agent),
    network: row.network,
  };
}

async function sessionsPage(
  services: AccountDeps,
  userId: number,
  currentSessionId: string,
  page: PageParams,
): Promise<Page<ActiveSession>> {
  const { rows, total } = pageRows(
    await selectLiveSessions(services.db, { userId, now: services.now().toISOString(), ...page }),
  );
  return pageOf(
    rows.map((row) => toActiveSession(row, currentSessionId)),
    total,
    page,
  );
}

/** `GET /sessions`: the caller's live sessions, hers marked. */
export function listOwnSessions(services: AccountDeps, auth: AuthContext, page: PageParams) {
  return sessionsPage(services, auth.userId, auth.sessionId, page);
}

/** `DELETE /sessions?others=true`: every live session of the caller but her own ends, with its event. */
export async function endOtherSessions(
  services: AccountDeps,
  auth: AuthContext,
  client: EventClient,
): Promise<{ ended: number }> {
  const ended = await services.db.transaction().execute(async (trx) => {
    const ids = await endSessions(trx, {
      userId: auth.userId,
      now: services.now(),
      reason: 'ended_by_user',
      exceptId: auth.sessionId,
    });
    if (ids.length > 0)
      await recordSecurityEvent(trx, {
        kind: 'sessions_ended',
        userId: auth.userId,
        client,
        details: { count: ids.length, reason: 'others' },
      });
    return ids.length;
  });
  return { ended };
}

const wrongCurrentPassword = () =>
  new ApiError('INVALID_CREDENTIALS', { message: 'The current password is not correct' });

/**
 * `POST /users/password-change`. The current password is checked first, as a sign-in checks it (reserved against the
 * lockouts before argon2 runs: a wrong one stays counted as a failed sign-in; while locked, 429); only then the new
 * one against the breach list and the current one, so neither answer helps a guesser who lacks the password. Then,
 * in one transaction: the new hash, every other session ended, the event of the change (and of the sessions it
 * ended). The caller's session goes on, its credentials proven now. The notice goes out after the answer's work.
 */
export async function changePassword(
  services: AccountDeps,
  auth: AuthContext,
  input: { currentPassword: string; newPassword: string; ip: string; client: EventClient; acceptLanguage?: string },
): Promise<void> {
  try {
    await reauthenticateWithPassword(services, auth, {
      sessionId: auth.sessionId,
      password: input.currentPassword,
      ip: input.ip,
    });
  } catch (error) {
    if (error instanceof ApiError && error.code === 'INVALID_CREDENTIALS') throw wrongCurrentPassword();
    throw error;
  }
  if (input.newPassword === input.currentPassword)
    throw new ApiError('BAD_REQUEST', {
      message: 'The new password is the current one',
      issues: [
        {
          where: 'body',
          path: '/newPassword',
          message: 'Password must be different from the current one',
          rule: 'PASSWORD_UNCHANGED',
        },
      ],
    });
  await refuseBreachedPassword(services, input.newPassword, '/newPassword');
  const passwordHash = await hashPassword(input.newPassword);
  const now = services.now();
  const ended = await services.db.transaction().execute(async (trx) => {
    await updatePasswordHash(trx, auth.userId, passwordHash, now);
    const ids = await endSessions(trx, {
      userId: auth.userId,
      now,
      reason: 'password_changed',
      exceptId: auth.sessionId,
    });
    await recordSecurityEvent(trx, { kind: 'password_changed', userId: auth.userId, client: input.client, at: now });
    if (ids.length > 0)
      await recordSecurityEvent(trx, {
        kind: 'sessions_ended',
        userId: auth.userId,
        client: input.client,
        details: { count: ids.length, reason: 'password_changed' },
        at: now,
      });
    return ids.length;
  });
  services.logger.info({ userId: auth.userId, endedSessions: ended }, 'password changed');
  await tellPasswordChanged(services, auth.userId, now, input.client, input.acceptLanguage);
}

async function tellPasswordChanged(
  services: AccountDeps,
  userId: number,
  at: Date,
  client: EventClient,
  acceptLanguage: string | undefined,
): Promise<void> {
  try {
    const account = await selectAccount(services.db, userId);
    if (!account) return;
    const language = await languageForUser(services.db, userId, acceptLanguage);
    const time = dateTime(language, at, services.config.timeZone);
    await services.notifier.email.send({
      to: account.email,
      ...passwordChangedEmail(language, { email: account.email, time, network: client.network ?? '–' }),
    });
  } catch (error) {
    // The password is changed either way; a notice that could not go out is logged, never a failed change.
    services.logger.error(
      { err: error instanceof Error ? error.message : String(error), userId },
      'could not send the password-changed notice',
    );
  }
}

const notAMember = () => new ApiError('NOT_FOUND', { message: 'No such member of the tenant' });

/**
 * The member's active tenants, after the caller is known to administer the request's tenant (else 403) and the
 * member to belong to it (else 404). `toEnd`: the caller must administer each of them (else 403, nothing ends).
 */
async function administeredMember(
  services: AccountDeps,
  auth: AuthContext,
  tenantId: number,
  memberId: number,
  toEnd: boolean,
): Promise<void> {
  await requireTenantAdmin(
    services.db,
    tenantId,
    auth.userId,
    'FORBIDDEN',
    "Only administrators of the tenant may see or end its members' sessions",
    auth.tenantAdmin,
  );
  const tenants = await selectMemberTenants(services.db, { memberId, administratorId: auth.userId });
  if (!tenants.some((t) => Number(t.tenant_id) === tenantId)) throw notAMember();
  if (toEnd && tenants.some((t) => !t.administered))
    throw new ApiError('FORBIDDEN', { message: 'The member also belongs to a tenant you do not administer' });
}

/** `GET /users/{userId}/sessions`: a member's live sessions, for an administrator of the tenant. */
export async function listMemberSessions(
  services: AccountDeps,
  auth: AuthContext,
  tenantId: number,
  memberId: number,
  page: PageParams,
) {
  await administeredMember(services, auth, tenantId, memberId, false);
  return sessionsPage(services, memberId, auth.sessionId, page);
}

/**
 * `DELETE /users/{userId}/sessions` (every live session of the member) and `DELETE /users/{userId}/sessions/{id}`
 * (one of them: another user's or an unknown id answers 404), with the event, by the administrator.
 */
export async function endMemberSessions(
  services: AccountDeps,
  auth: AuthContext,
  input: { tenantId: number; memberId: number; client: EventClient; sessionId?: string },
): Promise<{ ended: number }> {
  await administeredMember(services, auth, input.tenantId, input.memberId, true);
  const ended = await services.db.transaction().execute(async (trx) => {
    if (input.sessionId !== undefined && !(await isSessionOf(trx, input.memberId, input.sessionId)))
      throw new ApiError('NOT_FOUND', { message: 'No such session of the member' });
    const ids = await endSessions(trx, {
      userId: input.memberId,
      now: services.now(),
      reason: 'ended_by_administrator',
      onlyId: input.sessionId,
    });
    if (ids.length > 0)
      await recordSecurityEvent(trx, {
        kind: 'sessions_ended',
        userId: input.memberId,
        actor: { type: 'user', userId: auth.userId },
        client: input.client,
        details: { count: ids.length, reason: 'administrator' },
      });
    return ids.length;
  });
  return { ended };
}
