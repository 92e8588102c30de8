// Access tokens are signed with node:crypto and must be exactly what a JWT library accepts: checked here with
// jose against the public key alone, as any other service of the platform would check them.
import { decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import { AccessTokens } from '../../src/security/access-tokens';
import { generateSigningKey } from '../../src/security/secrets';

describe('access tokens', () => {
  const issuer = 'https://core.example.test';

  test('a signed token verifies with the public key and carries exactly the claims and header it should', async () => {
    const key = await generateSigningKey('region-1');
    const tokens = await AccessTokens.create([key], issuer, 900);
    const issued = new Date();
    const token = await tokens.sign({ userId: 42, sessionId: 'c0ffee00-0000-4000-8000-000000000001' }, issued);
    const { d: _d, ...publicJwk } = key;
    const { payload, protectedHeader } = await jwtVerify(token, await importJWK(publicJwk, 'ES256'), {
      issuer,
      audience: 'core-api',
      typ: 'at+jwt',
      algorithms: ['ES256'],
    });
    const iat = Math.floor(issued.getTime() / 1000);
    expect(protectedHeader).toEqual({ alg: 'ES256', kid: 'region-1', typ: 'at+jwt' });
    expect(payload).toEqual({
      sid: 'c0ffee00-0000-4000-8000-000000000001',
      sub: '42',
      iss: issuer,
      aud: 'core-api',
      iat,
      exp: iat + 900,
    });
    await expect(tokens.verify(token)).resolves.toEqual({
      userId: 42,
      sessionId: 'c0ffee00-0000-4000-8000-000000000001',
    });
  });

  test('each signature is fresh, a changed payload does not verify, and another key does not verify', async () => {
    const key = await generateSigningKey('region-1');
    const tokens = await AccessTokens.create([key], issuer, 900);
    const claims = { userId: 7, sessionId: 's-1' };
    const issued = new Date();
    const [a, b] = [await tokens.sign(claims, issued), await tokens.sign(claims, issued)];
    expect(a.split('.').slice(0, 2)).toEqual(b.split('.').slice(0, 2));
    expect(a).not.toBe(b); // ECDSA signatures are randomised
    const [header, payload, signature] = a.split('.');
    const forged = Buffer.from(Buffer.from(payload, 'base64url').toString().replace('"sub":"7"', '"sub":"8"')).toString(
      'base64url',
    );
    await expect(tokens.verify(`${header}.${forged}.${signature}`)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    const other = await AccessTokens.create([await generateSigningKey('region-1')], issuer, 900);
    await expect(other.verify(a)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(decodeProtectedHeader(a).kid).toBe('region-1');
  });

  test('the active key must be a private P-256 key with a kid', async () => {
    const key = await generateSigningKey('region-1');
    const { d: _d, ...publicOnly } = key;
    await expect(AccessTokens.create([publicOnly], issuer, 900)).rejects.toThrow(/private P-256/);
    await expect(AccessTokens.create([{ ...key, kid: undefined }], issuer, 900)).rejects.toThrow(/kid/);
  });
});
