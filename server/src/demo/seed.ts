// Demo data for development (never run in production): two tenants per region and the demo accounts listed
// in the README, all with the password `Demo-Password-1!`. Idempotent: it does nothing once tenants exist. It
// seeds only a database that holds nothing but demo data (empty, or seeded before), and refuses any other.
import { sql } from 'kysely';
import { buildPermissions, defaultUserSettings, memberPermissions } from '../modules/users';
import { emailHash } from '../security/hashing';
import { hashPassword } from '../security/passwords';
import type { Services } from '../services';
import { seedCrisis } from './seed-crisis';
import { seedInvitedUser } from './seed-invitation';
import { seedOrganisation } from './seed-organisation';
import { seedDevSso } from './seed-sso';
import { demoPassword, demoTenantsFor, demoUsersFor } from './demo-people';

/** The demo data would sit beside real data: nothing was written. */
export class DemoSeedRefused extends Error {
  constructor(tenants: number, users: number) {
    super(
      `Demo data not seeded: the database holds data that is not demo data (${tenants} tenant(s), ${users} user(s)). Start with SEED_DEMO_DATA=false, or use an empty database.`,
    );
    this.name = 'DemoSeedRefused';
  }
}

/** Demo tenants' websites and demo accounts' emails are all on demo.test (or a subdomain of it). */
const demoDomain = (column: string) =>
  sql<boolean>`(${sql.ref(column)} ~* '^(https://|[^@]*@)([a-z0-9-]+\.)*demo\.test(/|$)')`;

/** Refuses (DemoSeedRefused) when the database holds a tenant or a user that is not the demo data's. */
async function refuseUnlessDemoOnly(services: Services): Promise<void> {
  const { db } = services;
  const [tenants, users] = await Promise.all([
    db
      .selectFrom('tenants')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where(sql<boolean>`not ${demoDomain('website_url')}`)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where(sql<boolean>`not ${demoDomain('email')}`)
      .executeTakeFirstOrThrow(),
  ]);
  if (Number(tenants.n) > 0 || Number(users.n) > 0) throw new DemoSeedRefused(Number(tenants.n), Number(users.n));
}

export async function seedDemoData(services: Services): Promise<boolean> {
  const { db, config } = services;
  await refuseUnlessDemoOnly(services);
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
