// Demo data for development (never run in production): two tenants per region and the demo accounts listed
// in the README, all with the password `Demo-Password-1!`. Idempotent: it does nothing once tenants exist. It
// seeds only a database that holds nothing but demo data (empty, or seeded before), and refuses any other.
import { buildPermissions, defaultUserSettings, memberPermissions } from '../modules/users';
import { emailHash } from '../security/hashing';
import { hashPassword } from '../security/passwords';
import type { Services } from '../services';
import { seedCrisis } from './seed-crisis';
import { seedInvitedUser } from './seed-invitation';
import { seedOrganisation } from './seed-organisation';
import { seedDevSso } from './seed-sso';
import { demoPassword, demoTenantsFor, demoUsersFor } from './demo-people';
import {
  anyTenantExists,
  countNonDemoData,
  insertMembership,
  insertTenantWithAccount,
  insertUser,
  insertUserSettings,
} from './seed.repository';

/** The demo data would sit beside real data: nothing was written. */
export class DemoSeedRefused extends Error {
  constructor(tenants: number, users: number) {
    super(
      `Demo data not seeded: the database holds data that is not demo data (${tenants} tenant(s), ${users} user(s)). Start with SEED_DEMO_DATA=false, or use an empty database.`,
    );
    this.name = 'DemoSeedRefused';
  }
}

/** Refuses (DemoSeedRefused) when the database holds a tenant or a user that is not the demo data's. */
async function refuseUnlessDemoOnly(services: Services): Promise<void> {
  const { tenants, users } = await countNonDemoData(services.db);
  if (tenants > 0 || users > 0) throw new DemoSeedRefused(tenants, users);
}

export async function seedDemoData(services: Services): Promise<boolean> {
  const { db, config } = services;
  await refuseUnlessDemoOnly(services);
  if (await anyTenantExists(db)) {
    await seedDevSso(services);
    await seedInvitedUser(services);
    return false;
  }
  const passwordHash = await hashPassword(demoPassword);
  await db.transaction().execute(async (trx) => {
    const tenantIds: number[] = [];
    for (const t of demoTenantsFor(config.region)) tenantIds.push(await insertTenantWithAccount(trx, t));
    for (const u of demoUsersFor(config.region)) {
      const id = await insertUser(trx, {
        name: u.name,
        title: u.title,
        email: u.email,
        email_hash: emailHash(u.email),
        password_hash: passwordHash,
        phone_primary: u.phone,
        otp_email_enabled: u.otpEmail,
        otp_sms_enabled: u.otpSms,
      });
      await insertUserSettings(trx, { user_id: id, ...defaultUserSettings });
      for (const index of u.tenants) {
        const permissions = u.admin ? buildPermissions(true) : memberPermissions();
        await insertMembership(trx, {
          tenant_id: tenantIds[index],
          user_id: id,
          permissions: JSON.stringify(permissions),
        });
      }
    }
    for (let n = 1; n <= config.benchUsers; n++) {
      const email = `bench-${n}@demo.test`;
      const id = await insertUser(trx, {
        name: `Bench User ${n}`,
        title: null,
        email,
        email_hash: emailHash(email),
        password_hash: passwordHash,
      });
      await insertMembership(trx, {
        tenant_id: tenantIds[0],
        user_id: id,
        permissions: JSON.stringify(buildPermissions(true)),
      });
    }
  });
  await seedOrganisation(services);
  await seedCrisis(services);
  await seedDevSso(services);
  await seedInvitedUser(services);
  services.logger.info({ region: config.region }, 'demo data seeded');
  return true;
}
