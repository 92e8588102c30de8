// Invitations: a user who must choose a first password (created by a directory through SCIM, or by an operator)
// gets an email with a set-password link valid 30 days. Sending is a durable job enqueued with the change that
// causes it, so a crash never loses an invitation. Each invitation's link is derived from its job (an HMAC of
// the job id and a random nonce under the region's secret key): every retry sends the same link under the same
// Message-ID, and writing it makes every older unused link of the user stop working.
import { randomUUID } from 'node:crypto';
import type { Executor } from '../../db/database';
import type { JobContext, JobResult } from '../../jobs/scheduler';
import { chooseLanguage } from '../../messages/languages';
import { invitationEmail } from '../../messages/sign-in-messages';
import { keyedHash, randomToken } from '../../security/hashing';
import type { InvitationsDeps } from './invitations.deps';
import { passwordLink, passwordTokenHash, tokenLifetimeMs } from '../passwords';
import {
  deleteOutstandingPasswordTokens,
  findInvitee,
  replaceInvitationToken,
  setLanguageIfUnset,
  type Invitee,
} from './invitations.repository';

export const invitationJob = 'invitation.send';

/**
 * The platform an invitation leads to, carried by its link so the sign-in app can offer to log in there once the
 * password is set: the admin panel for a tenant administrator, else the app (what a directory's users use).
 */
export type InvitationPlatform = 'admin' | 'app';

/** Why a user gets no invitation; null when they need one. */
export type NoInvitation = 'no-membership' | 'has-password' | 'signs-in-with-sso' | 'deactivated' | 'inactive-here';

export function whyNoInvitation(invitee: Invitee | undefined): NoInvitation | null {
  if (!invitee) return 'no-membership';
  if (invitee.password_hash !== null) return 'has-password';
  if (invitee.sso !== null) return 'signs-in-with-sso';
  if (invitee.deactivated_at !== null) return 'deactivated';
  if (!invitee.active) return 'inactive-here';
  return null;
}

/**
 * Enqueues an invitation of the user to the tenant in the caller's transaction, when they need one. Answers the
 * job's dedupe key (to run it at once, see JobScheduler.runNow), or why there is none.
 */
export async function scheduleInvitation(
  services: InvitationsDeps,
  trx: Executor,
  input: { userId: number; tenantId: number; platform?: InvitationPlatform },
): Promise<{ job: string } | { none: NoInvitation }> {
  const none = whyNoInvitation(await findInvitee(trx, input.userId, input.tenantId));
  if (none) return { none };
  const job = `invitation:${input.userId}:${randomUUID()}`;
  await services.jobs.enqueue(trx, {
    kind: invitationJob,
    dedupeKey: job,
    payload: { ...input, platform: input.platform ?? 'app', nonce: randomToken(16) },
  });
  return { job };
}

/** The job: checks again that the user still needs the invitation, writes the link, sends the email. */
export async function sendInvitation(
  services: InvitationsDeps,
  payload: Record<string, unknown>,
  ctx: JobContext,
): Promise<JobResult> {
  const userId = Number(payload.userId);
  const tenantId = Number(payload.tenantId);
  const nonce = String(payload.nonce);
  // A job enqueued before invitations named their platform leads to the app.
  const platform: InvitationPlatform = payload.platform === 'admin' ? 'admin' : 'app';
  const invitee = await findInvitee(services.db, userId, tenantId);
  const none = whyNoInvitation(invitee);
  if (none || !invitee) {
    services.logger.info({ userId, tenantId, reason: none }, 'invitation not sent: no longer needed');
    return undefined;
  }
  const token = keyedHash(services.secretKey, `invitation\0${ctx.jobId}\0${nonce}`);
  const expiresAt = new Date(ctx.now().getTime() + tokenLifetimeMs.set);
  await services.db
    .transaction()
    .execute((trx) => replaceInvitationToken(trx, userId, passwordTokenHash(services, token), expiresAt));
  const language = chooseLanguage(invitee.preferred_language);
  const link = passwordLink(services, userId, 'set', token, language, platform);
  const email = invitationEmail(language, {
    organisation: invitee.organisation,
    email: invitee.email,
    link,
    days: tokenLifetimeMs.set / 86_400_000,
  });
  await services.notifier.email.send({
    to: invitee.email,
    ...email,
    idempotencyKey: `${services.config.region}.invitation-${ctx.jobId}.${nonce}`,
  });
  services.logger.info({ userId, tenantId }, 'invitation sent');
  return undefined;
}

/** A deactivated account keeps no way in: its unused invitation and reset links stop working. */
export const revokePasswordLinks = (db: Executor, userId: number): Promise<void> =>
  deleteOutstandingPasswordTokens(db, userId);

/** The language a directory gives a new user, unless the user has chosen one already. */
export const adoptDirectoryLanguage = (db: Executor, userId: number, language: string) =>
  setLanguageIfUnset(db, userId, language);
