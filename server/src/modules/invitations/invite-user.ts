// An operator invites someone to a tenant: a new account (no password) or an existing one, a membership there,
// and an invitation when the person needs one. Inviting again replaces the link sent before.
import { ApiError } from '../../errors';
import type { Language } from '../../messages/languages';
import { emailHash } from '../../security/hashing';
import type { InvitationsDeps } from './invitations.deps';
import { memberPermissions } from '../users';
import { recordSecurityEvent, regionOnly } from '../security-events';
import {
  addMembershipIfAbsent,
  findUserIdByEmailHash,
  insertInvitedUser,
  lockTenantForInvitation,
  setLanguageIfUnset,
} from './invitations.repository';
import { scheduleInvitation, type NoInvitation } from './invitations.service';

export interface InviteInput {
  tenantId: number;
  email: string;
  name: string;
  title?: string;
  phone?: string;
  language?: Language;
  admin?: boolean;
}

export interface InviteOutcome {
  userId: number;
  /** A new account was made (else an existing one was added or invited again). */
  created: boolean;
  /** The invitation job's dedupe key, or why the person needs none. */
  invitation: { job: string } | { none: NoInvitation };
}

export async function inviteUser(services: InvitationsDeps, input: InviteInput): Promise<InviteOutcome> {
  const outcome = await services.db.transaction().execute(async (trx) => {
    if (!(await lockTenantForInvitation(trx, input.tenantId)))
      throw new ApiError('NOT_FOUND', { message: `There is no tenant ${input.tenantId}` });
    const hash = emailHash(input.email);
    const existing = await findUserIdByEmailHash(trx, hash);
    const userId =
      existing?.id ??
      (await insertInvitedUser(trx, {
        name: input.name,
        title: input.title ?? null,
        email: input.email,
        emailHash: hash,
        phone: input.phone ?? null,
      }));
    const added = await addMembershipIfAbsent(trx, {
      tenantId: input.tenantId,
      userId,
      permissions: memberPermissions(),
      isAdmin: input.admin ?? false,
    });
    // The operator tool's change to the tenant's members, in its transaction.
    if (added)
      await recordSecurityEvent(trx, {
        kind: 'member_provisioned',
        userId,
        tenantId: input.tenantId,
        actor: { type: 'operator' },
        client: regionOnly(services.config.region),
        details: { reason: input.admin ? 'invited_as_administrator' : 'invited' },
      });
    if (input.language) await setLanguageIfUnset(trx, userId, input.language);
    return {
      userId,
      created: !existing,
      invitation: await scheduleInvitation(services, trx, {
        userId,
        tenantId: input.tenantId,
        platform: input.admin ? 'admin' : 'app',
      }),
    };
  });
  services.jobs.wake();
  return outcome;
}
