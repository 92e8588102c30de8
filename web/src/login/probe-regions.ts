import { ApiFailure, earliestUnavailable } from '../api/api-failure';
import { clientFor } from '../api/client';
import { probeHash } from '../api/probe-hash';
import type { RegionTarget } from '../config/config';
import { isProbedFor, isRegionCode, type RegionCode } from '../config/regions';
import { hashEmail } from './email-hash';

/** A region where the credentials are valid, and the API host to create the session at. */
export interface AvailableRegion {
  region: RegionCode;
  baseUrl: string;
}

export interface ProbeInput {
  email: string;
  password: string;
  clientType: string | null;
  targets: readonly RegionTarget[];
}

/**
 * Probes every region the client may sign in at, in parallel, with the identity hash and the password.
 * Returns the regions that answered available (empty: wrong email or password). A region that is rate limiting
 * or unreachable does not stop a sign-in another region accepts. When no region is available (spec section 4,
 * step 3):
 * - a region could not answer at all: throws that failure (the account may live there, so "incorrect" would be a
 *   guess);
 * - a region refused with 429: throws TOO_MANY_REQUESTS with the earliest unavailableUntil of the regions that
 *   refused. The account may live in a region that refused, so "incorrect" would be a guess too; and a region
 *   that answered cannot answer otherwise after a wait, nor can a region where the account does not exist
 *   (its lock, if any, must not lengthen the wait shown: the earliest moment a region can answer is shown);
 * - otherwise every region answered that the credentials do not match: empty, "Email or password is incorrect".
 */
export async function probeRegions({ email, password, clientType, targets }: ProbeInput): Promise<AvailableRegion[]> {
  const hash = await hashEmail(email);
  const probed = targets.filter((target) => isProbedFor(target.region, clientType));
  const outcomes = await Promise.allSettled(
    probed.map(async (target) => {
      const result = await probeHash(clientFor(target.baseUrl), hash, password);
      if (!isRegionCode(result.region) || typeof result.available !== 'boolean')
        throw new ApiFailure('UNEXPECTED_RESPONSE', 200);
      return { region: result.region, baseUrl: target.baseUrl, available: result.available };
    }),
  );

  const failures = outcomes.flatMap((outcome) =>
    outcome.status === 'rejected'
      ? [outcome.reason instanceof ApiFailure ? outcome.reason : new ApiFailure('NETWORK_ERROR', 0)]
      : [],
  );
  const available: AvailableRegion[] = [];
  for (const outcome of outcomes) {
    if (outcome.status !== 'fulfilled' || !outcome.value.available) continue;
    if (available.some((known) => known.region === outcome.value.region)) continue;
    available.push({ region: outcome.value.region, baseUrl: outcome.value.baseUrl });
  }
  if (available.length > 0) return available;
  const unanswered = failures.find((failure) => failure.code !== 'TOO_MANY_REQUESTS');
  if (unanswered) throw unanswered;
  const rateLimited = failures.filter((failure) => failure.code === 'TOO_MANY_REQUESTS');
  if (rateLimited.length > 0) throw earliestUnavailable(rateLimited);
  return available;
}
