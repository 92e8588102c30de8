import request from 'supertest';
import argon2 from 'argon2';
import { emailHash } from '../../src/security/hashing';
import { createTestContext, type TestContext } from '../support/context';
import { v1 } from '../support/fixtures';
import { goodPassword, insertUserWithPassword } from '../support/sign-in';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({
    env: { TRUST_PROXY: '1', REGION: 'sa-east-1', PUBLIC_BASE_URL: 'http://127.0.0.1:4001' },
  });
});
afterAll(() => ctx.close());

const probe = (hash: string, password: string, ip = '10.1.0.1') =>
  request(ctx.app).post(`/core/v1/probes/hash/${hash}`).set(v1).set('x-forwarded-for', ip).send({ password });

describe('POST /core/v1/probes/hash/{hash}', () => {
  test('when the account lives here and the password matches, answers available with this region', async () => {
    const user = await insertUserWithPassword(ctx.services);
    const res = await probe(emailHash(user.email), goodPassword);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ region: 'sa-east-1', baseUrl: 'http://127.0.0.1:4001', available: true });
  });

  test('unknown account and wrong password answer the same, after one argon2 verification each', async () => {
    const user = await insertUserWithPassword(ctx.services);
    const spy = jest.spyOn(argon2, 'verify');
    const unknown = await probe(emailHash('nobody@example.test'), goodPassword, '10.1.1.1');
    const wrong = await probe(emailHash(user.email), 'Wrong-Password-1!', '10.1.1.2');
    expect(spy).toHaveBeenCalledTimes(2);
    spy.mockRestore();
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(wrong.body);
    expect(unknown.body.available).toBe(false);
  });

  test('the hash must be 64 lowercase hex characters', async () => {
    for (const bad of ['abc', 'G'.repeat(64), 'A'.repeat(64)]) expect((await probe(bad, 'x')).status).toBe(400);
  });

  test('a probe has no per-hash budget: probes of one hash from many addresses are all checked', async () => {
    const hash = emailHash('many-addresses@example.test');
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++) statuses.push((await probe(hash, `Guess-${i}`, `10.1.2.${i}`)).status);
    expect(statuses).toEqual(Array(15).fill(200));
  });

  test('past a lockout a probe answers 429 with unavailableUntil and Retry-After', async () => {
    const hash = emailHash('rate-limited@example.test');
    for (let i = 0; i < 6; i++) await probe(hash, `Guess-${i}`, '10.1.2.100');
    const res = await probe(hash, 'Guess-x', '10.1.2.100');
    expect(res.status).toBe(429);
    expect(res.body.error).toMatchObject({ code: 'TOO_MANY_REQUESTS', unavailableUntil: expect.any(String) });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  test('wrong passwords lock the account out for probes too, known or not', async () => {
    const user = await insertUserWithPassword(ctx.services);
    for (const hash of [emailHash(user.email), emailHash('ghost@example.test')]) {
      for (let i = 0; i < 6; i++) await probe(hash, 'Wrong-Password-1!', '10.1.3.1');
      expect((await probe(hash, goodPassword, '10.1.3.1')).status).toBe(429);
    }
  });

  test('probes for accounts that live elsewhere cost the address what any failure costs, but never hold back a user at a familiar address', async () => {
    const user = await insertUserWithPassword(ctx.services);
    // The user has signed in from this office before: the address is familiar to the account.
    await request(ctx.app)
      .post('/core/v1/sessions')
      .set(v1)
      .set('x-forwarded-for', '10.1.4.1')
      .send({ grantType: 'password', email: user.email, password: goodPassword })
      .expect(201);
    const answers: number[] = [];
    for (let i = 0; i < 25; i++)
      answers.push((await probe(emailHash(`elsewhere-${i}@example.test`), goodPassword, '10.1.4.1')).status);
    expect(answers.slice(0, 21).every((s) => s === 200)).toBe(true);
    expect(answers.slice(22)).toEqual([429, 429, 429]);
    expect((await probe(emailHash(user.email), goodPassword, '10.1.4.1')).body.available).toBe(true);
  });

  test('wrong passwords for accounts that live here do lock the address out', async () => {
    for (let i = 0; i < 21; i++) {
      const user = await insertUserWithPassword(ctx.services);
      await probe(emailHash(user.email), 'Wrong-Password-1!', '10.1.5.1');
    }
    const user = await insertUserWithPassword(ctx.services);
    expect((await probe(emailHash(user.email), goodPassword, '10.1.5.1')).status).toBe(429);
  });
});
