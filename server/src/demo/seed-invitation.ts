// Demo data (development only): one invited user in Sweden/Europe, with no password yet, whose invitation (a
// set-password link) is in the development outbox once the region runs, so a newcomer can try the flow:
// http://localhost:4000/dev/outbox?to=nora@demo.test. Idempotent: runs on every development start and does
// nothing once the account exists (so an existing data directory picks it up too).
import { scheduleInvitation } from '../modules/invitations';
import { memberPermissions } from '../modules/users';
import { emailHash } from '../security/hashing';
import type { Services } from '../services';
import { demoTenantsFor } from './demo-people';
import { findTenantByName, findUserByEmailHash, insertMembership, insertUser } from './seed.repository';

export const demoInvitedUser = { email: 'nora@demo.test', name: 'Nora Nyberg', title: 'New colleague' };

const europe = ['eu-north-1', 'se-sto'];

export async function seedInvitedUser(services: Services): Promise<void> {
  const { db, config } = services;
  if (!europe.includes(config.region)) return;
  const hash = emailHash(demoInvitedUser.email);
  if (await findUserByEmailHash(db, hash)) return;
  const tenant = await findTenantByName(db, demoTenantsFor(config.region)[0].name);
  if (!tenant) return;
  await db.transaction().execute(async (trx) => {
    const userId = await insertUser(trx, {
      name: demoInvitedUser.name,
      title: demoInvitedUser.title,
      email: demoInvitedUser.email,
      email_hash: hash,
      password_hash: null,
    });
    await insertMembership(trx, {
      tenant_id: tenant.id,
      user_id: userId,
      permissions: JSON.stringify(memberPermissions()),
    });
    // Sent by the region's job runner as soon as it starts, like every invitation.
    await scheduleInvitation(services, trx, { userId, tenantId: tenant.id });
  });
}
