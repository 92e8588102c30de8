// Verifying access tokens (fast-jwt, one verifier per key of the set): forged, confused and stale tokens are
// refused, keys rotate, and the cache of verified tokens holds as many as the configuration says.
import { createHmac, createPrivateKey, createPublicKey, sign, type JsonWebKey } from 'node:crypto';
import { loadConfig } from '../../src/config';
import { AccessTokens } from '../../src/security/access-tokens';
import { generateSigningKey } from '../../src/security/secrets';

const issuer = 'https://core.example.test';
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);
const claims = () => ({
  sid: 'c0ffee00-0000-4000-8000-000000000001',
  sub: '42',
  iss: issuer,
  aud: 'core-api',
  iat: now(),
  exp: now() + 900,
});

describe('access token verification', () => {
  test('a token of an older key of the set still verifies (rotation); a key outside the set does not', async () => {
    const [older, newer] = [await generateSigningKey('k-1'), await generateSigningKey('k-2')];
    const before = await AccessTokens.create([older], issuer, 900);
    const token = await before.sign({ userId: 42, sessionId: 's-1' });
    const after = await AccessTokens.create([newer, older], issuer, 900);
    await expect(after.verify(token)).resolves.toEqual({ userId: 42, sessionId: 's-1' });
    const dropped = await AccessTokens.create([newer], issuer, 900);
    await expect(dropped.verify(token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    const stranger = await AccessTokens.create([await generateSigningKey('k-1')], issuer, 900);
    await expect(stranger.verify(token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  test('alg none, HS256 keyed with the public key, another typ, issuer or audience, no exp: each answers UNAUTHORIZED', async () => {
    const key = await generateSigningKey('k-1');
    const tokens = await AccessTokens.create([key], issuer, 900);
    const { d: _d, ...pub } = key;
    const publicPem = createPublicKey({ key: pub as JsonWebKey, format: 'jwk' })
      .export({ type: 'spki', format: 'pem' })
      .toString();
    const hs256 = (header: object, payload: object) => {
      const input = `${b64(header)}.${b64(payload)}`;
      return `${input}.${createHmac('sha256', publicPem).update(input).digest('base64url')}`;
    };
    const good = await tokens.sign({ userId: 42, sessionId: 's-1' });
    const [, , signature] = good.split('.');
    const attacks = [
      `${b64({ alg: 'none', kid: 'k-1', typ: 'at+jwt' })}.${b64(claims())}.`,
      hs256({ alg: 'HS256', kid: 'k-1', typ: 'at+jwt' }, claims()),
      `${b64({ alg: 'ES256', kid: 'k-1', typ: 'JWT' })}.${good.split('.')[1]}.${signature}`,
    ];
    for (const attack of attacks) await expect(tokens.verify(attack)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    // Properly signed by the region's key, but not for this API or this issuer, or without an expiry.
    const resign = async (payload: object) => {
      const other = await AccessTokens.create([key], issuer, 900);
      const [header] = (await other.sign({ userId: 1, sessionId: 'x' })).split('.');
      const input = `${header}.${b64(payload)}`;
      return `${input}.${sign('sha256', Buffer.from(input), { key: createPrivateKey({ key: key as JsonWebKey, format: 'jwk' }), dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
    };
    const { exp: _exp, ...noExpiry } = claims();
    const { sub: _sub, ...noSubject } = claims();
    for (const payload of [
      { ...claims(), aud: 'other-api' },
      { ...claims(), iss: 'https://elsewhere.test' },
      noExpiry,
      { ...claims(), sub: 'not-a-number' },
      // Only a pending single sign-on session's token goes without a subject.
      noSubject,
      { ...noSubject, pf: 'yes' },
    ]) {
      await expect(tokens.verify(await resign(payload))).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    }
    await expect(tokens.verify(await resign(claims()))).resolves.toEqual({
      userId: 42,
      sessionId: 'c0ffee00-0000-4000-8000-000000000001',
    });
  });

  // The region's own key signs tokens for this API only: one it signed for another audience (another service of the
  // same issuer) or for none must not open this one.
  const signedByRegion = async (payload: object) => {
    const key = await generateSigningKey('k-1');
    const tokens = await AccessTokens.create([key], issuer, 900);
    const [header] = (await tokens.sign({ userId: 1, sessionId: 'x' })).split('.');
    const input = `${header}.${b64(payload)}`;
    const signature = sign('sha256', Buffer.from(input), {
      key: createPrivateKey({ key: key as JsonWebKey, format: 'jwk' }),
      dsaEncoding: 'ieee-p1363',
    });
    return { tokens, token: `${input}.${signature.toString('base64url')}` };
  };

  test("attack: a token the region signed for another API (audience 'reports-api') is replayed here", async () => {
    const { tokens, token } = await signedByRegion({ ...claims(), aud: 'reports-api' });
    await expect(tokens.verify(token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  test('attack: a token the region signed with no audience at all is presented here', async () => {
    const { aud: _aud, ...noAudience } = claims();
    const { tokens, token } = await signedByRegion(noAudience);
    await expect(tokens.verify(token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  test('attack: a token the region signed with no issuer at all is presented here', async () => {
    const { iss: _iss, ...noIssuer } = claims();
    const { tokens, token } = await signedByRegion(noIssuer);
    await expect(tokens.verify(token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  test("a pending single sign-on session's token names no user, and only such a token may omit one", async () => {
    const tokens = await AccessTokens.create([await generateSigningKey('k-1')], issuer, 900);
    const token = await tokens.sign({ userId: null, sessionId: 's-1', pending: true });
    const payload = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
    expect(payload.sub).toBeUndefined();
    expect(payload.pf).toBe(true);
    await expect(tokens.verify(token)).resolves.toEqual({ userId: null, sessionId: 's-1', pending: true });
    // The cached answer is the same.
    await expect(tokens.verify(token)).resolves.toEqual({ userId: null, sessionId: 's-1', pending: true });
  });

  test('the cache of verified tokens holds at most ACCESS_TOKEN_CACHE_SIZE of them, and 0 keeps none', async () => {
    expect(loadConfig({ ACCESS_TOKEN_CACHE_SIZE: '250000' }).accessTokenCacheSize).toBe(250_000);
    expect(loadConfig({}).accessTokenCacheSize).toBe(10_000);
    expect(() => loadConfig({ ACCESS_TOKEN_CACHE_SIZE: '-1' })).toThrow(/ACCESS_TOKEN_CACHE_SIZE/);
    const key = await generateSigningKey('k-1');
    for (const [size, held] of [
      [3, 3],
      [0, 0],
    ]) {
      const tokens = await AccessTokens.create([key], issuer, 900, size);
      for (let i = 1; i <= 5; i++) await tokens.verify(await tokens.sign({ userId: i, sessionId: `s-${i}` }));
      expect((tokens as unknown as { verified: Map<string, unknown> }).verified.size).toBe(held);
    }
  });
});
