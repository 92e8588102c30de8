// Direct inserts for test data, so tests of one feature do not depend on the API of another.
import { randomUUID } from 'node:crypto';
import { buildPermissions } from '../../src/modules/users/permission-flags';
import { emailHash } from '../../src/security/hashing';
import type { Services } from '../../src/services';

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

export async function insertTenant(services: Services, name = `Tenant ${unique()}`): Promise<number> {
  const { id } = await services.db
    .insertInto('tenants')
    .values({ name, logo_url: 'https://tenant.test/logo.png', website_url: 'https://tenant.test' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export interface UserOptions {
  email?: string;
  name?: string;
  passwordHash?: string | null;
  phone?: string | null;
  otpEmail?: boolean;
  otpSms?: boolean;
  tenants?: number[];
  permissions?: ReturnType<typeof buildPermissions>;
}

export async function insertUser(
  services: Services,
  options: UserOptions = {},
): Promise<{ id: number; email: string }> {
  const email = options.email ?? `user-${unique()}@example.test`;
  const { id } = await services.db
    .insertInto('users')
    .values({
      name: options.name ?? 'Test User',
      title: null,
      email,
      email_hash: emailHash(email),
      password_hash: options.passwordHash ?? null,
      phone_primary: options.phone ?? null,
      otp_email_enabled: options.otpEmail ?? false,
      otp_sms_enabled: options.otpSms ?? false,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const tenantId of options.tenants ?? []) {
    await services.db
      .insertInto('memberships')
      .values({
        tenant_id: tenantId,
        user_id: id,
        permissions: JSON.stringify(options.permissions ?? buildPermissions(true)),
      })
      .execute();
  }
  return { id, email };
}

/** A session row and an access token for it, as if the user had signed in. */
export async function signIn(
  services: Services,
  userId: number,
  factors: Record<string, 'verified' | 'unverified'> = { password: 'verified' },
): Promise<{ sessionId: string; accessToken: string }> {
  const sessionId = randomUUID();
  const now = services.now();
  await services.db
    .insertInto('sessions')
    .values({
      id: sessionId,
      user_id: userId,
      factors: JSON.stringify(factors),
      last_refreshed_at: now,
      // As a sign-in does: its factors were proven now.
      proven_at: now,
      expires_at: new Date(now.getTime() + 365 * 86_400_000),
    })
    .execute();
  return { sessionId, accessToken: await services.tokens.sign({ userId, sessionId }) };
}

/** A single sign-on session as the `sso` grant opens it: waiting for `kind` at the tenant's IdP, bound to no user. */
export async function pendingSsoSignIn(
  services: Services,
  tenantId: number,
  kind: 'oidc' | 'saml' | 'skolon',
): Promise<{ sessionId: string; accessToken: string }> {
  const sessionId = randomUUID();
  const now = services.now();
  await services.db
    .insertInto('sessions')
    .values({
      id: sessionId,
      user_id: null,
      sso_tenant_id: tenantId,
      factors: JSON.stringify({ [kind]: 'unverified' }),
      last_refreshed_at: now,
      expires_at: new Date(now.getTime() + 15 * 60_000),
    })
    .execute();
  return { sessionId, accessToken: await services.tokens.sign({ userId: null, sessionId, pending: true }) };
}

export const v1 = { 'cosafe-core-api-version': '1' } as const;
