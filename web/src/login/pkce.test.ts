import { createHash } from 'node:crypto';
import { codeChallengeS256, createCodeVerifier, createState, isCodeVerifier, randomUrlSafe } from './pkce';

const s256 = (verifier: string) => createHash('sha256').update(verifier, 'ascii').digest('base64url');

describe('PKCE', () => {
  test('the code verifier has 43 to 128 unreserved characters (RFC 7636 4.1), here 64', () => {
    const verifier = createCodeVerifier();
    expect(verifier).toMatch(/^[A-Za-z0-9\-._~]{43,128}$/);
    expect(verifier).toHaveLength(64);
    expect(isCodeVerifier(verifier)).toBe(true);
  });

  test('every verifier and state is new (Web Crypto randomness)', () => {
    const verifiers = new Set(Array.from({ length: 50 }, createCodeVerifier));
    const states = new Set(Array.from({ length: 50 }, createState));
    expect(verifiers.size).toBe(50);
    expect(states.size).toBe(50);
  });

  test('the random bytes come from crypto.getRandomValues', () => {
    const spy = jest.spyOn(globalThis.crypto, 'getRandomValues');
    createCodeVerifier();
    createState();
    expect(spy).toHaveBeenCalledTimes(2);
  });

  test('the S256 challenge of the RFC 7636 appendix B verifier is the appendix value', async () => {
    await expect(codeChallengeS256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).resolves.toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  test('the challenge is BASE64URL(SHA-256(verifier)) without padding, for fresh verifiers too', async () => {
    for (let i = 0; i < 10; i++) {
      const verifier = createCodeVerifier();
      const challenge = await codeChallengeS256(verifier);
      expect(challenge).toBe(s256(verifier));
      expect(challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
  });

  test.each([
    ['too short (42)', 'a'.repeat(42)],
    ['too long (129)', 'a'.repeat(129)],
    ['with a reserved character', `${'a'.repeat(42)}+`],
    ['with a space', `${'a'.repeat(42)} `],
    ['with non-ASCII', `${'a'.repeat(42)}å`],
  ])('a verifier %s is refused', async (_name, verifier) => {
    expect(isCodeVerifier(verifier)).toBe(false);
    await expect(codeChallengeS256(verifier)).rejects.toThrow(/43 to 128/);
  });

  test('the boundaries 43 and 128 are accepted', () => {
    expect(isCodeVerifier('a'.repeat(43))).toBe(true);
    expect(isCodeVerifier('~._-'.repeat(32))).toBe(true);
  });

  test('state has 256 bits in 43 URL-safe characters', () => {
    expect(createState()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomUrlSafe(3)).toMatch(/^[A-Za-z0-9_-]{4}$/);
  });
});
