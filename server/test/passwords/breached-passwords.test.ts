// Attacks on the new-password rules: a password every attacker's list tries first, dressed up to pass the
// composition rules, set by invitation or reset; and a password a breach service knows. The breach service is a
// fake on 127.0.0.1 that answers the k-anonymity range API (only the SHA-1's first 5 hex digits are asked for).
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { commonPasswordsLoaded, isCommonPassword } from '../../src/modules/passwords/breach-list';
import { createPasswordToken } from '../../src/modules/passwords/passwords.service';
import { createTestContext, type TestContext } from '../support/context';
import { insertUser, v1 } from '../support/fixtures';

let ctx: TestContext;
let breachService: Server;
const asked: string[] = [];
/** The breached passwords the fake service knows. */
const breached = ['Unlisted-But-Leaked-7!'];
const sha1 = (text: string) => createHash('sha1').update(text).digest('hex').toUpperCase();
let serviceAnswers = true;

beforeAll(async () => {
  breachService = createServer((req, res) => {
    const prefix = req.url!.split('/').pop()!;
    asked.push(prefix);
    if (!serviceAnswers) return void res.writeHead(503).end();
    const lines = breached
      .map(sha1)
      .filter((hash) => hash.startsWith(prefix))
      .map((hash) => `${hash.slice(5)}:42`);
    // Padding, as the real service adds: suffixes with a zero count.
    lines.push(`${'0'.repeat(35)}:0`);
    res.writeHead(200, { 'content-type': 'text/plain' }).end(lines.join('\r\n'));
  });
  await new Promise<void>((resolve) => breachService.listen(0, '127.0.0.1', resolve));
  const { port } = breachService.address() as AddressInfo;
  ctx = await createTestContext({
    env: { TRUST_PROXY: '1', PASSWORD_BREACH_RANGE_URL: `http://127.0.0.1:${port}/range/` },
  });
});
afterAll(async () => {
  await ctx.close();
  await new Promise((resolve) => breachService.close(resolve));
});

let ipCounter = 0;
const ip = () => `10.7.${Math.floor(ipCounter / 250)}.${ipCounter++ % 250}`;
const useLink = (kind: 'set' | 'reset', userId: number, token: string, password: string) =>
  request(ctx.app)
    .post(`/core/v1/users/${userId}/password-${kind}`)
    .set(v1)
    .set('x-forwarded-for', ip())
    .send(kind === 'set' ? { token, password } : { token, newPassword: password });

test('the list of common passwords is not read when the server starts', () => {
  expect(commonPasswordsLoaded()).toBe(false);
});

describe.each(['set', 'reset'] as const)('attack: a common password dressed up to pass the rules (%s)', (kind) => {
  test.each(['Password123!', 'Qwerty123456!', '!Iloveyou2024', 'Welcome-2024!'])(
    '%s is refused with PASSWORD_ON_BREACH_LIST, and nothing changes',
    async (password) => {
      const user = await insertUser(ctx.services);
      const token = await createPasswordToken(ctx.services, user.id, kind);
      const res = await useLink(kind, user.id, token, password);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('BAD_REQUEST');
      expect(res.body.error.issues).toEqual([
        {
          where: 'body',
          path: kind === 'set' ? '/password' : '/newPassword',
          message: 'Password is too common or known from a data breach',
          rule: 'PASSWORD_ON_BREACH_LIST',
        },
      ]);
      // The link is still good for a better password.
      expect((await useLink(kind, user.id, token, 'Correct-Horse-9!')).status).toBe(204);
    },
  );
});

test('the list is compared without regard to case, once the decoration at both ends is left out, and only then', () => {
  expect(isCommonPassword('PASSWORD')).toBe(true);
  expect(isCommonPassword('12345678!Dragon#')).toBe(true);
  expect(isCommonPassword('Correct-Horse-9!')).toBe(false);
  expect(isCommonPassword('Iloveyou')).toBe(true);
  expect(commonPasswordsLoaded()).toBe(true);
});

describe('attack: a password known from a breach, by a configured breach service', () => {
  test('is refused, and the service is asked for the first 5 hex digits of its SHA-1 only', async () => {
    const user = await insertUser(ctx.services);
    const token = await createPasswordToken(ctx.services, user.id, 'reset');
    asked.length = 0;
    const res = await useLink('reset', user.id, token, breached[0]);
    expect(res.status).toBe(400);
    expect(res.body.error.issues[0].rule).toBe('PASSWORD_ON_BREACH_LIST');
    expect(asked).toEqual([sha1(breached[0]).slice(0, 5)]);
    expect((await useLink('reset', user.id, token, 'Not-Leaked-Anywhere-31!')).status).toBe(204);
  });

  test('a service that does not answer leaves the password to the list and the rules', async () => {
    serviceAnswers = false;
    try {
      const user = await insertUser(ctx.services);
      const token = await createPasswordToken(ctx.services, user.id, 'set');
      expect((await useLink('set', user.id, token, breached[0])).status).toBe(204);
      const other = await insertUser(ctx.services);
      const second = await createPasswordToken(ctx.services, other.id, 'set');
      expect((await useLink('set', other.id, second, 'Password123!')).status).toBe(400);
    } finally {
      serviceAnswers = true;
    }
  });
});
