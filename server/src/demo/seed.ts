// Demo data for development (never run in production): two tenants per region and the demo accounts listed
// in the README, all with the password `Demo-Password-1!`. Idempotent: it does nothing once tenants exist.
import { buildPermissions, defaultUserSettings, memberPermissions } from '../modules/users';
import { emailHash } from '../security/hashing';
import { hashPassword } from '../security/passwords';
import type { Services } from '../services';
import { seedCrisis } from './seed-crisis';
import { seedInvitedUser } from './seed-invitation';
import { seedOrganisation } from './seed-organisation';
import { seedDevSso } from './seed-sso';
import { demoPassword, demoTenantsFor, demoUsersFor } from './demo-people';

export async function seedDemoData(services: Services): Promise<boolean> {
  const { db, config } = services;
  const existing = await db.selectFrom('tenants').select('id').limit(1).executeTakeFirst();
  if (existing) {
    await seedDevSso(services);
    await seedInvitedUser(services);
    return false;
  }
  const passwordHash = await hashPassword(demoPassword);
  await db.transaction().execute(async (trx) => {
    const tenantIds: number[] = [];
    for (const t of demoTenantsFor(config.region)) {
      const { id } = await trx
        .insertInto('tenants')
        .values({
          name: t.name,
          logo_url: `${t.website}/logo.png`,
          website_url: t.website,
          may_any_user_activate_im_ok: false,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      tenantIds.push(id);
      await trx
        .insertInto('accounts')
        .values({ tenant_id: id, name: `${t.name} HQ` })
        .execute();
    }
    for (const u of demoUsersFor(config.region)) {
      const { id } = await trx
        .insertInto('users')
        .values({
          name: u.name,
          title: u.title,
          email: u.email,
          email_hash: emailHash(u.email),
          password_hash: passwordHash,
          phone_primary: u.phone,
          otp_email_enabled: u.otpEmail,
          otp_sms_enabled: u.otpSms,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('user_settings')
        .values({ user_id: id, ...defaultUserSettings })
        .execute();
      for (const index of u.tenants) {
        const permissions = u.admin ? buildPermissions(true) : memberPermissions();
        await trx
          .insertInto('memberships')
          .values({ tenant_id: tenantIds[index], user_id: id, permissions: JSON.stringify(permissions) })
          .execute();
      }
    }
    for (let n = 1; n <= config.benchUsers; n++) {
      const email = `bench-${n}@demo.test`;
      const { id } = await trx
        .insertInto('users')
        .values({
          name: `Bench User ${n}`,
          title: null,
          email,
          email_hash: emailHash(email),
          password_hash: passwordHash,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('memberships')
        .values({ tenant_id: tenantIds[0], user_id: id, permissions: JSON.stringify(buildPermissions(true)) })
        .execute();
    }
  });
  await seedOrganisation(services);
  await seedCrisis(services);
  await seedDevSso(services);
  await seedInvitedUser(services);
  services.logger.info({ region: config.region }, 'demo data seeded');
  return true;
}
