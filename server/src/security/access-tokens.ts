import { createPrivateKey, sign, type JsonWebKey, type KeyObject } from 'node:crypto';
import { createLocalJWKSet, errors, jwtVerify, type JWK, type JWTVerifyGetKey } from 'jose';
import { ApiError } from '../errors';

export interface AccessTokenClaims {
  userId: number;
  sessionId: string;
}

const audience = 'core-api';

/**
 * Short-lived ES256 JWTs signed with the region's active key; every key of the set verifies (rotation).
 * Verifying, where the care lies (algorithms, claims, clocks), is jose's. Signing is done here with node:crypto
 * in one synchronous call: jose signs through WebCrypto, whose promise goes through the thread pool, and on the
 * sign-in path that hop cost more CPU than the signature itself. The token is the same: a JWS compact
 * serialisation with the protected header jose wrote, the signature as R || S (RFC 7518 section 3.4).
 */
export class AccessTokens {
  private readonly header: string;

  private constructor(
    private readonly signingKey: KeyObject,
    kid: string,
    private readonly verifyKeys: JWTVerifyGetKey,
    private readonly issuer: string,
    private readonly ttlSeconds: number,
  ) {
    this.header = base64url({ alg: 'ES256', kid, typ: 'at+jwt' });
  }

  static async create(keys: JWK[], issuer: string, ttlSeconds: number): Promise<AccessTokens> {
    const active = keys[0];
    if (active.kty !== 'EC' || active.crv !== 'P-256' || !active.d || !active.kid) throw new Error('the active signing key must be a private P-256 JWK with a kid');
    const signingKey = createPrivateKey({ key: active as JsonWebKey, format: 'jwk' });
    const publicKeys = keys.map(({ d: _d, ...pub }) => pub);
    return new AccessTokens(signingKey, active.kid, createLocalJWKSet({ keys: publicKeys }), issuer, ttlSeconds);
  }

  /** `issuedAt` is for clocks other than the system's (tests of expiry). */
  async sign(claims: AccessTokenClaims, issuedAt: Date = new Date()): Promise<string> {
    const iat = Math.floor(issuedAt.getTime() / 1000);
    const payload = base64url({ sid: claims.sessionId, sub: String(claims.userId), iss: this.issuer, aud: audience, iat, exp: iat + this.ttlSeconds });
    const input = `${this.header}.${payload}`;
    const signature = sign('sha256', Buffer.from(input), { key: this.signingKey, dsaEncoding: 'ieee-p1363' });
    return `${input}.${signature.toString('base64url')}`;
  }

  /**
   * Tokens already verified, until they expire: a client sends the same token with every call for its 15
   * minutes, and the signature check is the dearest step of authenticating a call. Only successful checks are
   * kept; the session behind the token is still looked up on every request, so a revoked session ends at once.
   * The verification keys only change with a restart, which empties this.
   */
  private readonly verified = new Map<string, AccessTokenClaims & { expiresAt: number }>();
  private static readonly verifiedLimit = 10_000;
  private static readonly clockToleranceSeconds = 5;

  async verify(token: string): Promise<AccessTokenClaims> {
    const known = this.verified.get(token);
    if (known) {
      if (Date.now() < known.expiresAt) return { userId: known.userId, sessionId: known.sessionId };
      this.verified.delete(token);
    }
    const claims = await this.verifySignature(token);
    if (this.verified.size >= AccessTokens.verifiedLimit) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, claims);
    return { userId: claims.userId, sessionId: claims.sessionId };
  }

  private async verifySignature(token: string): Promise<AccessTokenClaims & { expiresAt: number }> {
    try {
      const { payload } = await jwtVerify(token, this.verifyKeys, {
        issuer: this.issuer,
        audience,
        algorithms: ['ES256'],
        typ: 'at+jwt',
        clockTolerance: AccessTokens.clockToleranceSeconds,
        requiredClaims: ['exp'],
      });
      const userId = Number(payload.sub);
      if (!Number.isSafeInteger(userId) || userId < 1 || typeof payload.sid !== 'string') throw new ApiError('UNAUTHORIZED');
      // jose rejects a token once now - tolerance >= exp; the cache keeps the same rule.
      return { userId, sessionId: payload.sid, expiresAt: (payload.exp! + AccessTokens.clockToleranceSeconds) * 1000 };
    } catch (error) {
      if (error instanceof ApiError) throw error;
      if (error instanceof errors.JWTExpired) throw new ApiError('EXPIRED_ACCESS_TOKEN', { message: 'The access token has expired' });
      throw new ApiError('UNAUTHORIZED', { message: 'The access token is not valid' });
    }
  }
}

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
