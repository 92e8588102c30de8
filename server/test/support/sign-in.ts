// Helpers for sign-in tests: users with real argon2 password hashes, and a clock tests can move.
import request from 'supertest';
import { hashPassword } from '../../src/security/passwords';
import { emailHash } from '../../src/security/hashing';
import type { Services } from '../../src/services';
import type { TestContext } from './context';
import { insertTenant, insertUser, v1, type UserOptions } from './fixtures';

export const goodPassword = 'Correct-Horse-9!';
let cachedHash: Promise<string> | null = null;
export const goodPasswordHash = () => (cachedHash ??= hashPassword(goodPassword));

export async function insertUserWithPassword(services: Services, options: UserOptions = {}) {
  return insertUser(services, { passwordHash: await goodPasswordHash(), ...options });
}

/** A clock that starts now and moves only when told. */
export function movableClock() {
  let offset = 0;
  let held: Date | undefined;
  const now = () => held ?? new Date(Date.now() + offset);
  return {
    now,
    advance: (ms: number) => void (offset += ms),
    /** Stops the clock at `at` (until called again; no argument lets it run on). */
    hold: (at?: Date) => void (held = at),
  };
}

export const latestOutboxMessage = async (services: Services, to: string) =>
  services.db
    .selectFrom('outbox')
    .selectAll()
    .where('recipient', '=', to)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();

export const codeFrom = (body: string) => /\b(\d{6})\b/.exec(body)?.[1] ?? '';

/** A new member of a new tenant signs in with a password through the API: the session as answered (201). */
export async function passwordSession(ctx: TestContext) {
  const tenant = await insertTenant(ctx.services);
  const user = await insertUserWithPassword(ctx.services, { tenants: [tenant] });
  const res = await request(ctx.app)
    .post('/core/v1/sessions')
    .set(v1)
    .send({ grantType: 'password', email: user.email, password: goodPassword });
  expect(res.status).toBe(201);
  return res.body as { id: string; accessToken: string; refreshToken: string };
}

/** PUT /sessions/{id}: a refresh with `token`. */
export const refreshSession = (ctx: TestContext, id: string, token: string) =>
  request(ctx.app).put(`/core/v1/sessions/${id}`).set(v1).set('authorization', `Bearer ${token}`);

/** POST /sessions with the password grant, from client address `ip` (the context trusts X-Forwarded-For). */
export const passwordLogin = (ctx: TestContext, email: string, password: string, ip: string) =>
  request(ctx.app)
    .post('/core/v1/sessions')
    .set(v1)
    .set('x-forwarded-for', ip)
    .send({ grantType: 'password', email, password });

/** POST /probes/hash/{hash} with the right password, from client address `ip`. */
export const probeRightPassword = (ctx: TestContext, email: string, ip: string) =>
  request(ctx.app)
    .post(`/core/v1/probes/hash/${emailHash(email)}`)
    .set(v1)
    .set('x-forwarded-for', ip)
    .send({ password: goodPassword });
