// Issuing a session's tokens: a short-lived access token (JWT) and an opaque refresh token of 256 random bits,
// stored only as a keyed hash.
import type { Kysely, Transaction } from 'kysely';
import type { components } from '../../../../generated/core-api';
import type { Database } from '../../db/types';
import { keyedHash, randomToken } from '../../security/hashing';
import type { Services } from '../../services';
import { insertRefreshToken, type Factors } from './sessions.repository';

export type SessionBody = components['schemas']['Session'];

export const refreshTokenPrefix = 'rt_';
export const sessionLifetimeMs = 365 * 86_400_000;
export const refreshGraceMs = 10_000;

export const hashRefreshToken = (services: Services, token: string) => keyedHash(services.secretKey, `refresh\0${token}`);

export const newRefreshToken = () => refreshTokenPrefix + randomToken(32);

export async function issueTokens(
  services: Services,
  db: Kysely<Database> | Transaction<Database>,
  session: { id: string; userId: number; factors: Factors },
): Promise<SessionBody> {
  const refreshToken = newRefreshToken();
  await insertRefreshToken(db, hashRefreshToken(services, refreshToken), session.id);
  const accessToken = await services.tokens.sign({ userId: session.userId, sessionId: session.id });
  return { id: session.id, accessToken, refreshToken, factors: session.factors as SessionBody['factors'] };
}
