import { SignJWT, createLocalJWKSet, errors, importJWK, jwtVerify, type JWK, type JWTVerifyGetKey } from 'jose';
import { ApiError } from '../errors';

export interface AccessTokenClaims {
  userId: number;
  sessionId: string;
}

const audience = 'core-api';

/** Short-lived ES256 JWTs signed with the region's active key; every key of the set verifies (rotation). */
export class AccessTokens {
  private constructor(
    private readonly signingKey: Awaited<ReturnType<typeof importJWK>>,
    private readonly kid: string,
    private readonly verifyKeys: JWTVerifyGetKey,
    private readonly issuer: string,
    private readonly ttlSeconds: number,
  ) {}

  static async create(keys: JWK[], issuer: string, ttlSeconds: number): Promise<AccessTokens> {
    const active = keys[0];
    const signingKey = await importJWK(active, 'ES256');
    const publicKeys = keys.map(({ d: _d, ...pub }) => pub);
    return new AccessTokens(signingKey, active.kid!, createLocalJWKSet({ keys: publicKeys }), issuer, ttlSeconds);
  }

  /** `issuedAt` is for clocks other than the system's (tests of expiry). */
  sign(claims: AccessTokenClaims, issuedAt: Date = new Date()): Promise<string> {
    const iat = Math.floor(issuedAt.getTime() / 1000);
    return new SignJWT({ sid: claims.sessionId })
      .setProtectedHeader({ alg: 'ES256', kid: this.kid, typ: 'at+jwt' })
      .setSubject(String(claims.userId))
      .setIssuer(this.issuer)
      .setAudience(audience)
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.ttlSeconds)
      .sign(this.signingKey);
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
