// Attacks through password links: an old reset link kept after the reset, reset links sent to a deactivated
// account, guessing link tokens concurrently, and racing two uses of one link.
import type { Server } from 'node:http';
import { createPasswordToken } from '../../src/modules/passwords/passwords.service';
import { emailHash } from '../../src/security/hashing';
import { createTestContext, type TestContext } from '../support/context';
import { insertUser } from '../support/fixtures';
import { goodPassword, insertUserWithPassword, latestOutboxMessage } from '../support/sign-in';
import { listen, type Answer } from '../support/from-address';

let ctx: TestContext;
let server: Server;
let send: (from: string, method: string, path: string, body?: unknown) => Promise<Answer>;
beforeAll(async () => {
  ctx = await createTestContext();
  ({ server, send } = await listen(ctx.app));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await ctx.close();
});

let next = 10;
const address = () => `127.2.${Math.floor(++next / 250)}.${(next % 250) + 2}`;
const newPassword = 'Brand-New-Pass-42!';
const reset = (from: string, userId: number, token: string, password = newPassword) =>
  send(from, 'POST', `/core/v1/users/${userId}/password-reset`, { token, newPassword: password });

describe('attack: keeping a second reset link after the password was reset', () => {
  test("once one reset link is used, the user's other reset links stop working", async () => {
    const user = await insertUserWithPassword(ctx.services);
    const first = await createPasswordToken(ctx.services, user.id, 'reset');
    const second = await createPasswordToken(ctx.services, user.id, 'reset');
    expect((await reset(address(), user.id, first)).status).toBe(204);
    const again = await reset(address(), user.id, second, 'Attacker-Pass-99!');
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('USER_PASSWORD_SET_TOKEN_INVALID');
  });
});

describe('attack: resetting the password of a deactivated account', () => {
  test('a deactivated account is sent no reset link, and the answer is the same as for an unknown address', async () => {
    const user = await insertUserWithPassword(ctx.services);
    await ctx.services.db.updateTable('users').set({ deactivated_at: new Date() }).where('id', '=', user.id).execute();
    const res = await send(address(), 'POST', '/core/v1/users/password-reset', { emailHash: emailHash(user.email) });
    const unknown = await send(address(), 'POST', '/core/v1/users/password-reset', {
      emailHash: emailHash(`nobody-${Date.now()}@example.test`),
    });
    expect(res.status).toBe(202);
    expect(unknown.status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await latestOutboxMessage(ctx.services, user.email)).toBeUndefined();
  });
});

describe('attack: guessing link tokens concurrently', () => {
  test('40 concurrent guesses from one address get no more checks than the address allows (30)', async () => {
    const user = await insertUser(ctx.services);
    const from = address();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => reset(from, user.id, `guess-${i}-${'x'.repeat(30)}`)),
    );
    expect(answers.filter((a) => a.status === 400).length).toBeLessThanOrEqual(30);
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(10);
  });

  test('two concurrent uses of one link: exactly one sets the password', async () => {
    const user = await insertUserWithPassword(ctx.services);
    const token = await createPasswordToken(ctx.services, user.id, 'reset');
    const answers = await Promise.all([
      reset(address(), user.id, token, 'First-Password-1!'),
      reset(address(), user.id, token, 'Second-Password-2!'),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([204, 400]);
    expect(goodPassword).not.toBe('First-Password-1!');
  });
});

describe('a new password over the maximum length', () => {
  test('answers 400 with the rule PASSWORD_TOO_LONG, which the sign-in app shows on the field', async () => {
    const user = await insertUserWithPassword(ctx.services);
    const token = await createPasswordToken(ctx.services, user.id, 'reset');
    const res = await reset(address(), user.id, token, `Aa1!${'x'.repeat(300)}`);
    expect(res.status).toBe(400);
    expect(res.body.error.issues).toEqual([
      expect.objectContaining({ where: 'body', path: '/newPassword', rule: 'PASSWORD_TOO_LONG' }),
    ]);
  });
});
