// Demo data for development (never run in production): two tenants per region and the demo accounts listed
// in the README, all with the password `Demo-Password-1!`. Idempotent: it does nothing once tenants exist.
import type { RegionId } from '../config';
import { buildPermissions } from '../modules/users/permission-flags';
import { emailHash } from '../security/hashing';
import { hashPassword } from '../security/passwords';
import type { Services } from '../services';
import { seedCrisis } from './seed-crisis';
import { seedOrganisation } from './seed-organisation';
import { seedDevSso } from './seed-sso';

export const demoPassword = 'Demo-Password-1!';

interface DemoUser {
  email: string;
  name: string;
  title: string | null;
  phone: string | null;
  otpEmail: boolean;
  otpSms: boolean;
  /** Indexes into the region's tenants. */
  tenants: number[];
  admin: boolean;
}

const europe = ['eu-north-1', 'se-sto'];

export function demoUsersFor(region: RegionId): DemoUser[] {
  const users: DemoUser[] = europe.includes(region)
    ? [
        { email: 'anna@demo.test', name: 'Anna Lindqvist', title: 'Safety manager', phone: '+46700000000', otpEmail: false, otpSms: false, tenants: [0], admin: true },
        { email: 'erik@demo.test', name: 'Erik Johansson', title: 'Caretaker', phone: null, otpEmail: true, otpSms: false, tenants: [0], admin: false },
        { email: 'sofia@demo.test', name: 'Sofia Berg', title: 'Nurse', phone: '+46700000001', otpEmail: true, otpSms: true, tenants: [1], admin: false },
        { email: 'maria@demo.test', name: 'Maria Santos', title: 'Consultant', phone: null, otpEmail: false, otpSms: false, tenants: [0, 1], admin: false },
      ]
    : [
        { email: 'maria@demo.test', name: 'Maria Santos', title: 'Consultora', phone: null, otpEmail: false, otpSms: false, tenants: [1], admin: false },
        { email: 'joao@demo.test', name: 'João Silva', title: 'Professor', phone: '+5511900000000', otpEmail: false, otpSms: false, tenants: [0], admin: true },
      ];
  return users;
}

export function demoTenantsFor(region: RegionId): { name: string; website: string }[] {
  return europe.includes(region)
    ? [
        { name: 'Demo Municipality', website: 'https://municipality.demo.test' },
        { name: 'Demo Hospital', website: 'https://hospital.demo.test' },
      ]
    : [
        { name: 'Escola Demo', website: 'https://escola.demo.test' },
        { name: 'Hospital Demo', website: 'https://hospital-br.demo.test' },
      ];
}

export async function seedDemoData(services: Services): Promise<boolean> {
  const { db, config } = services;
  const existing = await db.selectFrom('tenants').select('id').limit(1).executeTakeFirst();
  if (existing) {
    await seedDevSso(services);
    return false;
  }
  const passwordHash = await hashPassword(demoPassword);
  await db.transaction().execute(async (trx) => {
    const tenantIds: number[] = [];
    for (const t of demoTenantsFor(config.region)) {
      const { id } = await trx
        .insertInto('tenants')
        .values({ name: t.name, logo_url: `${t.website}/logo.png`, website_url: t.website, may_any_user_activate_im_ok: false })
        .returning('id')
        .executeTakeFirstOrThrow();
      tenantIds.push(id);
      await trx.insertInto('accounts').values({ tenant_id: id, name: `${t.name} HQ` }).execute();
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
      await trx.insertInto('user_settings').values({ user_id: id, receive_emails: true, notify_checklists: true, notify_documents: true, preferred_language: null }).execute();
      for (const index of u.tenants) {
        const permissions = u.admin ? buildPermissions(true) : buildPermissions(false, ['groups.mayInteractWithOwn', 'alarms.mayActivate', 'alarms.mayDeactivate', 'documents.mayRead', 'news.mayRead', 'meetingRoom.mayJoin', 'checklists.mayUse']);
        await trx.insertInto('memberships').values({ tenant_id: tenantIds[index], user_id: id, permissions: JSON.stringify(permissions) }).execute();
      }
    }
    for (let n = 1; n <= config.benchUsers; n++) {
      const email = `bench-${n}@demo.test`;
      const { id } = await trx
        .insertInto('users')
        .values({ name: `Bench User ${n}`, title: null, email, email_hash: emailHash(email), password_hash: passwordHash })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx.insertInto('memberships').values({ tenant_id: tenantIds[0], user_id: id, permissions: JSON.stringify(buildPermissions(true)) }).execute();
    }
  });
  await seedOrganisation(services);
  await seedCrisis(services);
  await seedDevSso(services);
  services.logger.info({ region: config.region }, 'demo data seeded');
  return true;
}
