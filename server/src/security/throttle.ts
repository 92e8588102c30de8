// Rate limits whose state lives in the database, so limits hold across every instance of a region: at most so many
// uses of a key per fixed window. Each check is one atomic statement, safe under concurrency on PostgreSQL and
// PGlite alike. The parts (rateLimitCheck, rateLimitAnswer, rateLimitVerdict) also open the sign-in's lockout
// statements (modules/sessions/lockouts.repository.ts), which count their rate limits in the same round trip.
import type { Db } from '../db/database';
import { tooManyRequests } from '../errors';
import {
  countRateLimits,
  rateLimitAnswer,
  rateLimitCheck,
  rateLimitExceeded,
  type RateLimitAnswer,
  type RateLimitValues,
} from './throttle.repository';

export { rateLimitAnswer, rateLimitCheck, rateLimitExceeded, type RateLimitAnswer, type RateLimitValues };

/** At most `limit` uses per fixed window of `windowSeconds`. */
export interface RatePolicy {
  limit: number;
  windowSeconds: number;
}

/** How long a source stays familiar to an identity after its last successful sign-in (housekeeping forgets it then). */
export const familiarDays = 90;

export function rateLimitValues(now: Date, consume: [key: string, policy: RatePolicy][]): RateLimitValues {
  return {
    now: now.toISOString(),
    consumeKeys: consume.map(([key]) => key),
    consumeWindowEnds: consume.map(([, p]) => new Date(now.getTime() + p.windowSeconds * 1000).toISOString()),
    consumeLimits: consume.map(([, p]) => p.limit),
  };
}

export const latest = (times: string[]) => new Date(Math.max(...times.map((t) => new Date(t).getTime())));

/** Throws 429 TOO_MANY_REQUESTS (with the wait) when a rate limit is exceeded. */
export function rateLimitVerdict(row: RateLimitAnswer, consume: [key: string, policy: RatePolicy][]): void {
  if (row.limited?.length) throw tooManyRequests(latest(row.limited.map((r) => r.window_ends_at)));
  const over = (row.consumed ?? []).filter((r) => r.count > consume.find(([key]) => key === r.key)![1].limit);
  if (over.length) throw tooManyRequests(latest(over.map((r) => r.window_ends_at)));
}

export class Throttle {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
  ) {}

  /** Counts one use of each key; past any limit throws 429 TOO_MANY_REQUESTS until that window ends. */
  async consume(...entries: [key: string, policy: RatePolicy][]): Promise<void> {
    const row = await countRateLimits(this.db, rateLimitValues(this.now(), entries));
    rateLimitVerdict(row, entries);
  }
}

/** The numbers, in one place (documented in docs/decisions.md); the sign-in lockouts are the sessions module's. */
export const policies = {
  /** `GET /probes/idpDomain/{idpDomain}` per client address (the password probe follows the sign-in's lockouts). */
  probePerAddress: { limit: 60, windowSeconds: 60 },
  /**
   * `sso` grants per client address, whoever the email is: the grant checks no secret (the identity provider
   * does), so it moves no lockout; this bounds the pending sessions one address can open.
   */
  ssoGrantPerAddress: { limit: 60, windowSeconds: 60 },
  /** One-time codes sent per user (each one a message). */
  otpSendPerUser: { limit: 10, windowSeconds: 3600 },
  /**
   * Passkey second-factor challenges asked for, per user: they send nothing and each replaces the session's open
   * one, so this only bounds the rows written; the answers are held to a wrong code's limits.
   */
  passkeyChallengePerUser: { limit: 60, windowSeconds: 3600 },
  /**
   * `POST /passkeys/authentication-options` per client address: it names nobody and checks nothing, so this only
   * bounds the challenges one address can leave behind (they expire in 5 minutes).
   */
  passkeyOptionsPerAddress: { limit: 60, windowSeconds: 60 },
  /** Passkey registration options per user. */
  passkeyRegistrationPerUser: { limit: 30, windowSeconds: 3600 },
  /** `POST /passkeys/removal` per client address: each names a token of 256 bits, so this only bounds the work. */
  passkeyRemovalPerAddress: { limit: 30, windowSeconds: 600 },
  passwordResetPerHash: { limit: 3, windowSeconds: 3600 },
  passwordResetPerAddress: { limit: 20, windowSeconds: 3600 },
  passwordTokenPerAddress: { limit: 30, windowSeconds: 600 },
} satisfies Record<string, RatePolicy>;
