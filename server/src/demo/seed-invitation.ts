// Demo data (development only): one invited user in Sweden/Europe, with no password yet, whose invitation (a
// set-password link) is in the development outbox once the region runs, so a newcomer can try the flow:
// http://localhost:4000/dev/outbox?to=nora@demo.test. Idempotent: runs on every development start and does
// nothing once the account exists (so an existing data directory picks it up too).
import { scheduleInvitation } from '../modules/invitations';
import { memberPermissions } from '../modules/users';
import { emailHash } from '../security/hashing';
import type { Services } from '../services';
import { demoTenantsFor } from './demo-people';

export const demoInvitedUser = { email: 'nora@demo.test', name: 'Nora Nyberg', title: 'New colleague' };

const europe = ['eu-north-1', 'se-sto'];

export async function seedInvitedUser(services: Services): Promise<void> {
  const { db, config } = services;
  if (!europe.includes(config.region)) return;
  const hash = emailHash(demoInvitedUser.email);
  if (await db.selectFrom('users').select('id').where('email_hash', '=', hash).executeTakeFirst()) return;
  const tenant = await db
    .selectFrom('tenants')
    .select('id')
    .where('name', '=', demoTenantsFor(config.region)[0].name)
    .executeTakeFirst();
  if (!tenant) return;
  await db.transaction().execute(async (trx) => {
    const user = await trx
      .insertInto('users')
      .values({
        name: demoInvitedUser.name,
        title: demoInvitedUser.title,
        email: demoInvitedUser.email,
        email_hash: hash,
        password_hash: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('memberships')
      .values({ tenant_id: tenant.id, user_id: user.id, permissions: JSON.stringify(memberPermissions()) })
      .execute();
    // Sent by the region's job runner as soon as it starts, like every invitation.
    await scheduleInvitation(services, trx, { userId: user.id, tenantId: tenant.id });
  });
}
