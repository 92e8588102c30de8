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

  async verify(token: string): Promise<AccessTokenClaims> {
    try {
      const { payload } = await jwtVerify(token, this.verifyKeys, {
        issuer: this.issuer,
        audience,
        algorithms: ['ES256'],
        typ: 'at+jwt',
        clockTolerance: 5,
      });
      const userId = Number(payload.sub);
      if (!Number.isSafeInteger(userId) || userId < 1 || typeof payload.sid !== 'string') throw new ApiError('UNAUTHORIZED');
      return { userId, sessionId: payload.sid };
    } catch (error) {
      if (error instanceof ApiError) throw error;
      if (error instanceof errors.JWTExpired) throw new ApiError('EXPIRED_ACCESS_TOKEN', { message: 'The access token has expired' });
      throw new ApiError('UNAUTHORIZED', { message: 'The access token is not valid' });
    }
  }
}
