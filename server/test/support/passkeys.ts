// Passkey ceremonies through the API, for tests: a signed-in user adds a passkey of a software authenticator, and
// signs in with it alone.
import request from 'supertest';
import type { TestContext } from './context';
import { insertTenant, insertUser, signIn, v1, type UserOptions } from './fixtures';
import { SoftAuthenticator, type Algorithm, type CeremonyOptions } from './soft-authenticator';

export interface SignedIn {
  userId: number;
  email: string;
  sessionId: string;
  accessToken: string;
}

/** A member of a new tenant with a complete password session (as if signed in). */
export async function signedInUser(
  ctx: TestContext,
  options: UserOptions & { factors?: Record<string, 'verified' | 'unverified'> } = {},
): Promise<SignedIn> {
  const tenant = await insertTenant(ctx.services);
  const user = await insertUser(ctx.services, { tenants: [tenant], ...options });
  const session = await signIn(ctx.services, user.id, options.factors ?? { password: 'verified' });
  return { userId: user.id, email: user.email, ...session };
}

export const bearer = (who: { accessToken: string }) => ({ ...v1, authorization: `Bearer ${who.accessToken}` });

export const registrationOptions = (ctx: TestContext, who: { accessToken: string }) =>
  request(ctx.app).post('/core/v1/passkeys/registration-options').set(bearer(who));

export const addPasskey = (ctx: TestContext, who: { accessToken: string }, body: object) =>
  request(ctx.app).post('/core/v1/passkeys').set(bearer(who)).send(body);

/** Options, the authenticator's answer, the registration: the passkey as answered (201 expected). */
export async function enrol(
  ctx: TestContext,
  who: { accessToken: string },
  authenticator: SoftAuthenticator = new SoftAuthenticator(),
  options: CeremonyOptions & { name?: string } = {},
) {
  const opts = await registrationOptions(ctx, who);
  expect(opts.status).toBe(201);
  const res = await addPasskey(ctx, who, {
    ...(options.name ? { name: options.name } : {}),
    credential: authenticator.register(opts.body, options),
  });
  return { res, authenticator, options: opts.body };
}

/** A user with one passkey of `algorithm`, enrolled through the API. */
export async function userWithPasskey(ctx: TestContext, algorithm: Algorithm = 'ES256', options: UserOptions = {}) {
  const who = await signedInUser(ctx, options);
  const { res, authenticator } = await enrol(ctx, who, new SoftAuthenticator(algorithm));
  expect(res.status).toBe(201);
  return { ...who, authenticator, passkeyId: res.body.id as string };
}

export const authenticationOptions = (ctx: TestContext, ip?: string) => {
  const req = request(ctx.app).post('/core/v1/passkeys/authentication-options').set(v1);
  return ip ? req.set('x-forwarded-for', ip) : req;
};

let addresses = 0;
/** A client address of its own (behind TRUST_PROXY), so one test's failures do not lock out another's. */
export const freshAddress = () =>
  `10.${200 + Math.floor(addresses / 65_536)}.${Math.floor(addresses / 256) % 256}.${addresses++ % 256}`;

export const passkeyGrant = (ctx: TestContext, credential: object, ip = freshAddress()) =>
  request(ctx.app)
    .post('/core/v1/sessions')
    .set(v1)
    .set('x-forwarded-for', ip)
    .send({ grantType: 'passkey', credential });

/** A passwordless sign-in: this region's options, the authenticator's assertion, the grant. */
export async function signInWithPasskey(ctx: TestContext, authenticator: SoftAuthenticator, o: CeremonyOptions = {}) {
  const options = await authenticationOptions(ctx);
  expect(options.status).toBe(201);
  return passkeyGrant(ctx, authenticator.authenticate(options.body, o));
}
