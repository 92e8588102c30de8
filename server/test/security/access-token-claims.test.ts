// Access tokens at their edges: the clock tolerance of an expired token, how long the cache of verified tokens trusts
// an answer, which subjects and session ids a properly signed token may carry, and which keys may sign.
import { createPrivateKey, sign, type JsonWebKey } from 'node:crypto';
import type { SigningJwk } from '../../src/config';
import { AccessTokens } from '../../src/security/access-tokens';
import { generateSigningKey } from '../../src/security/secrets';

const issuer = 'https://core.example.test';
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A token signed with the region's key whose payload is exactly `payload` (what `sign` would never write). */
function signedWith(key: SigningJwk, payload: object): string {
  const input = `${b64({ alg: 'ES256', typ: 'at+jwt', kid: key.kid })}.${b64(payload)}`;
  const signature = sign('sha256', Buffer.from(input), {
    key: createPrivateKey({ key: key as JsonWebKey, format: 'jwk' }),
    dsaEncoding: 'ieee-p1363',
  });
  return `${input}.${signature.toString('base64url')}`;
}

const seconds = () => Math.floor(Date.now() / 1000);

describe('access token edges', () => {
  afterEach(() => jest.restoreAllMocks());

  test('a token expired for less than the 5 s clock tolerance still verifies; one expired for longer is EXPIRED_ACCESS_TOKEN', async () => {
    const tokens = await AccessTokens.create([await generateSigningKey('k-1')], issuer, 60, 0);
    const expiredAgo = async (s: number) =>
      tokens.verify(await tokens.sign({ userId: 3, sessionId: 's-3' }, new Date((seconds() - 60 - s) * 1000)));
    await expect(expiredAgo(2)).resolves.toEqual({ userId: 3, sessionId: 's-3' });
    await expect(expiredAgo(10)).rejects.toMatchObject({
      code: 'EXPIRED_ACCESS_TOKEN',
      message: 'The access token has expired',
    });
  });

  test('a verified token is answered from the cache until its expiry plus the tolerance, then refused and forgotten', async () => {
    const tokens = await AccessTokens.create([await generateSigningKey('k-1')], issuer, 60);
    const checks = jest.spyOn(
      AccessTokens.prototype as unknown as { verifySignature: () => unknown },
      'verifySignature',
    );
    const start = Date.now();
    const token = await tokens.sign({ userId: 5, sessionId: 's-5' }, new Date(start));
    const exp = Math.floor(start / 1000) + 60;
    await expect(tokens.verify(token)).resolves.toEqual({ userId: 5, sessionId: 's-5' });
    expect(checks).toHaveBeenCalledTimes(1);
    const clock = jest.spyOn(Date, 'now');
    // 2 s after its expiry, within the tolerance: the cached answer, no second signature check.
    clock.mockReturnValue((exp + 2) * 1000);
    await expect(tokens.verify(token)).resolves.toEqual({ userId: 5, sessionId: 's-5' });
    expect(checks).toHaveBeenCalledTimes(1);
    // At exactly its expiry plus the tolerance the cache no longer answers: the signature is checked again (and
    // fast-jwt still lets that millisecond pass). 10 s after, the check refuses it and the cache lets it go.
    clock.mockReturnValue((exp + 5) * 1000);
    await expect(tokens.verify(token)).resolves.toEqual({ userId: 5, sessionId: 's-5' });
    expect(checks).toHaveBeenCalledTimes(2);
    clock.mockReturnValue((exp + 10) * 1000);
    await expect(tokens.verify(token)).rejects.toMatchObject({ code: 'EXPIRED_ACCESS_TOKEN' });
    expect(checks).toHaveBeenCalledTimes(3);
    expect((tokens as unknown as { verified: Map<string, unknown> }).verified.size).toBe(0);
  });

  test('the subject must be a positive whole number written as a string, and the session id a string', async () => {
    const key = await generateSigningKey('k-1');
    const tokens = await AccessTokens.create([key], issuer, 900, 0);
    const claims = (extra: object) => ({ sid: 's-1', iss: issuer, aud: 'core-api', exp: seconds() + 900, ...extra });
    await expect(tokens.verify(signedWith(key, claims({ sub: '1' })))).resolves.toEqual({
      userId: 1,
      sessionId: 's-1',
    });
    for (const payload of [
      claims({ sub: 42 }),
      claims({ sub: '0' }),
      claims({ sub: '-4' }),
      claims({ sub: '1.5' }),
      claims({ sub: '9007199254740993' }),
      claims({ sub: '' }),
      claims({ sub: '7', sid: 7 }),
      claims({ sub: '7', sid: undefined }),
      // A subject with the pending mark is still a subject, and checked as one.
      claims({ sub: 'x', pf: true }),
    ]) {
      await expect(tokens.verify(signedWith(key, payload))).rejects.toMatchObject({
        code: 'UNAUTHORIZED',
        httpStatus: 401,
        message: 'The access token is not valid',
      });
    }
    // A pending token of a user who signed in with a password and waits for the second factor keeps its user.
    await expect(tokens.verify(signedWith(key, claims({ sub: '7', pf: true })))).resolves.toEqual({
      userId: 7,
      sessionId: 's-1',
      pending: true,
    });
  });

  test('a token with no key id, or one the set does not know, says only that it is not valid', async () => {
    const key = await generateSigningKey('k-1');
    const tokens = await AccessTokens.create([key], issuer, 900, 0);
    const good = await tokens.sign({ userId: 1, sessionId: 's-1' });
    const [, payload, signature] = good.split('.');
    for (const header of [
      { alg: 'ES256', typ: 'at+jwt' },
      { alg: 'ES256', typ: 'at+jwt', kid: 'k-2' },
    ])
      await expect(tokens.verify(`${b64(header)}.${payload}.${signature}`)).rejects.toMatchObject({
        code: 'UNAUTHORIZED',
        message: 'The access token is not valid',
      });
    for (const junk of [
      '',
      'not a token',
      'a.b.c',
      `${b64({ kid: 'k-1' })}.x.y`,
      `${b64(null)}.${payload}.${signature}`,
    ])
      await expect(tokens.verify(junk)).rejects.toMatchObject({
        code: 'UNAUTHORIZED',
        message: 'The access token is not valid',
      });
  });

  test('a key id is matched as the string it is: the number 1 is not the key "1"', async () => {
    const key = await generateSigningKey('1');
    const tokens = await AccessTokens.create([key], issuer, 900, 0);
    const good = await tokens.sign({ userId: 1, sessionId: 's-1' });
    const [, payload, signature] = good.split('.');
    await expect(tokens.verify(good)).resolves.toEqual({ userId: 1, sessionId: 's-1' });
    await expect(
      tokens.verify(`${b64({ alg: 'ES256', typ: 'at+jwt', kid: 1 })}.${payload}.${signature}`),
    ).rejects.toMatchObject({ code: 'UNAUTHORIZED', message: 'The access token is not valid' });
  });

  test('a fault inside the verifier is not disguised as a refused token', async () => {
    const key = await generateSigningKey('k-1');
    const tokens = await AccessTokens.create([key], issuer, 900, 0);
    const token = await tokens.sign({ userId: 1, sessionId: 's-1' });
    const fault = new RangeError('verifier fault');
    (tokens as unknown as { verifiers: Map<string, () => never> }).verifiers.set('k-1', () => {
      throw fault;
    });
    await expect(tokens.verify(token)).rejects.toBe(fault);
  });

  test('keys of the set without a kid are skipped; the active key must be an EC P-256 key', async () => {
    const key = await generateSigningKey('k-1');
    const { kid: _kid, ...noKid } = await generateSigningKey('k-2');
    const tokens = await AccessTokens.create([key, noKid as SigningJwk], issuer, 900);
    await expect(tokens.verify(await tokens.sign({ userId: 1, sessionId: 's-1' }))).resolves.toEqual({
      userId: 1,
      sessionId: 's-1',
    });
    await expect(AccessTokens.create([{ ...key, kty: 'OKP' }], issuer, 900)).rejects.toThrow(/P-256/);
    await expect(AccessTokens.create([{ ...key, crv: 'P-384' }], issuer, 900)).rejects.toThrow(/P-256/);
  });
});
