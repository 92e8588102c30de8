import { createPrivateKey, createPublicKey, type JsonWebKey } from 'node:crypto';
import { createSigner, createVerifier, TokenError } from 'fast-jwt';
import type { SigningJwk } from '../config';
import { ApiError } from '../errors';

export interface AccessTokenClaims {
  /**
   * The session's user (claim `sub`); null for a single sign-on session not yet bound to one, whose token has no
   * `sub` and is always pending.
   */
  userId: number | null;
  sessionId: string;
  /**
   * Issued while the session waited for its second factor (claim `pf`): refused once the factor is verified
   * (the session is checked on every request, so a cached token never outlives that change).
   */
  pending?: boolean;
}

const audience = 'core-api';

type Verify = (token: string) => { sub?: unknown; sid?: unknown; pf?: unknown; exp?: number };

const claimsOf = (c: AccessTokenClaims): AccessTokenClaims =>
  c.pending
    ? { userId: c.userId, sessionId: c.sessionId, pending: true }
    : { userId: c.userId, sessionId: c.sessionId };
type Sign = (payload: Record<string, unknown>) => string;

/**
 * Short-lived ES256 JWTs signed with the region's active key; every key of the set verifies (rotation).
 * Signing and verifying, where the care lies (algorithm, `typ`, claims, clocks), are fast-jwt's: one signer for
 * the active key, one verifier per key of the set, picked by the token's `kid`, each one synchronous call into
 * node:crypto. jose, which did both before, goes through WebCrypto, whose promise takes a detour through the
 * thread pool: on a token the cache has not seen that detour cost about a third of the verification, and on the
 * sign-in path more than the signature itself. The token is a JWS compact serialisation, the signature as
 * R || S (RFC 7518 section 3.4).
 */
export class AccessTokens {
  private constructor(
    private readonly signer: Sign,
    private readonly verifiers: Map<string, Verify>,
    private readonly issuer: string,
    private readonly ttlSeconds: number,
    private readonly verifiedLimit: number,
  ) {}

  /** `cacheSize`: how many verified tokens are remembered (the region's clients active within a token's life). */
  static async create(
    keys: SigningJwk[],
    issuer: string,
    ttlSeconds: number,
    cacheSize = 10_000,
  ): Promise<AccessTokens> {
    const active = keys[0];
    if (active.kty !== 'EC' || active.crv !== 'P-256' || !active.d || !active.kid)
      throw new Error('the active signing key must be a private P-256 JWK with a kid');
    const signingKey = createPrivateKey({ key: active as JsonWebKey, format: 'jwk' })
      .export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const signer = createSigner({
      key: signingKey,
      algorithm: 'ES256',
      kid: active.kid,
      header: { alg: 'ES256', typ: 'at+jwt' },
    }) as Sign;
    const verifiers = new Map<string, Verify>();
    for (const { d: _d, ...pub } of keys) {
      if (!pub.kid) continue;
      const key = createPublicKey({ key: pub as JsonWebKey, format: 'jwk' })
        .export({ type: 'spki', format: 'pem' })
        .toString();
      verifiers.set(
        pub.kid,
        createVerifier({
          key,
          algorithms: ['ES256'],
          checkTyp: 'at+jwt',
          allowedIss: issuer,
          allowedAud: audience,
          // fast-jwt checks an audience or issuer only when the token has one: a token of the region's key for no
          // audience (or no issuer) would otherwise pass for this API's.
          requiredClaims: ['exp', 'aud', 'iss'],
          clockTolerance: AccessTokens.clockToleranceSeconds * 1000,
        }) as Verify,
      );
    }
    return new AccessTokens(signer, verifiers, issuer, ttlSeconds, cacheSize);
  }

  /** `issuedAt` is for clocks other than the system's (tests of expiry). */
  async sign(claims: AccessTokenClaims, issuedAt: Date = new Date()): Promise<string> {
    const iat = Math.floor(issuedAt.getTime() / 1000);
    return this.signer({
      sid: claims.sessionId,
      ...(claims.userId === null ? {} : { sub: String(claims.userId) }),
      ...(claims.pending ? { pf: true } : {}),
      iss: this.issuer,
      aud: audience,
      iat,
      exp: iat + this.ttlSeconds,
    });
  }

  /**
   * Tokens already verified, until they expire: a client sends the same token with every call for its 15
   * minutes, and the signature check is the dearest step of authenticating a call. Only successful checks are
   * kept; the session behind the token is still looked up on every request, so a revoked session ends at once.
   * The verification keys only change with a restart, which empties this.
   */
  private readonly verified = new Map<string, AccessTokenClaims & { expiresAt: number }>();
  private static readonly clockToleranceSeconds = 5;

  async verify(token: string): Promise<AccessTokenClaims> {
    const known = this.verified.get(token);
    if (known) {
      if (Date.now() < known.expiresAt) return claimsOf(known);
      this.verified.delete(token);
    }
    const claims = this.verifySignature(token);
    if (this.verifiedLimit <= 0) return claimsOf(claims);
    if (this.verified.size >= this.verifiedLimit) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, claims);
    return claimsOf(claims);
  }

  private verifySignature(token: string): AccessTokenClaims & { expiresAt: number } {
    // Only string kids are keys of the map: a header that is not JSON, has no kid or a kid of another type finds
    // no verifier.
    const verify = this.verifiers.get(kidOf(token) as string);
    if (!verify) throw notValid();
    let payload: Awaited<ReturnType<typeof verify>>;
    try {
      payload = verify(token);
    } catch (error) {
      // fast-jwt answers every refusal with a TokenError; anything else is a fault, not a bad token.
      if (!(error instanceof TokenError)) throw error;
      if (error.code === TokenError.codes.expired)
        throw new ApiError('EXPIRED_ACCESS_TOKEN', { message: 'The access token has expired' });
      throw notValid();
    }
    // No subject: a pending single sign-on session's token, which is always marked pending.
    const userId = payload.sub === undefined && payload.pf === true ? null : Number(payload.sub);
    if (
      (userId !== null && (typeof payload.sub !== 'string' || !Number.isSafeInteger(userId) || userId < 1)) ||
      typeof payload.sid !== 'string'
    )
      throw notValid();
    // A token is refused once now - tolerance >= exp; the cache keeps the same rule.
    return {
      userId,
      sessionId: payload.sid,
      pending: payload.pf === true,
      expiresAt: (payload.exp! + AccessTokens.clockToleranceSeconds) * 1000,
    };
  }
}

/** Every refusal of a token but expiry says only this, so a caller learns nothing of which check failed. */
const notValid = () => new ApiError('UNAUTHORIZED', { message: 'The access token is not valid' });

/** The `kid` of a compact JWS's protected header as written, or undefined when the header is not a JSON object. */
function kidOf(token: string): unknown {
  type Header = { kid?: unknown } | null;
  let header: Header = null;
  try {
    header = JSON.parse(Buffer.from(token.slice(0, token.indexOf('.')), 'base64url').toString()) as Header;
  } catch {
    // Not JSON: no key id.
  }
  // JSON `null` has none either.
  return header?.kid;
}
