import { ApiFailure, latestUnavailable } from '../api/api-failure';
import { clientFor } from '../api/client';
import { type PasskeyRequestOptions, requestAuthenticationOptions } from '../api/passkeys';
import type { RegionTarget } from '../config/config';
import { isProbedFor } from '../config/regions';
import { challengeBytes, concatChallenges } from './passkey-challenge';
import type { AvailableRegion } from './probe-regions';

/** The options of one passwordless ceremony for every region that answered, and those regions in order. */
export interface JoinedOptions {
  optionsJSON: PasskeyRequestOptions;
  /** The regions whose challenge is in `optionsJSON.challenge`, in the order their challenges are joined. */
  regions: AvailableRegion[];
  /** What the regions that gave no challenge answered, by region (a user handle may name one of them). */
  failures: Map<string, ApiFailure>;
}

/**
 * Asks every region the client signs in at for passwordless options, in parallel, and joins the challenges of
 * those that answered, in the configuration's order, into one WebAuthn challenge (docs/decisions.md, passkeys and
 * regions). A region that fails, answers a challenge that is not 32 bytes, or names another relying party is
 * left out. When none answers: every one rate limited → TOO_MANY_REQUESTS (the longest wait), else the first
 * failure that is not a rate limit (as the password probe does).
 */
export async function joinedAuthenticationOptions(
  targets: readonly RegionTarget[],
  clientType: string | null,
): Promise<JoinedOptions> {
  const asked = targets.filter((target) => isProbedFor(target.region, clientType));
  const outcomes = await Promise.allSettled(
    asked.map((target) => requestAuthenticationOptions(clientFor(target.baseUrl))),
  );
  const regions: AvailableRegion[] = [];
  const challenges: string[] = [];
  const timeouts: number[] = [];
  const failures = new Map<string, ApiFailure>();
  let first: PasskeyRequestOptions | null = null;
  for (const [index, outcome] of outcomes.entries()) {
    const target = asked[index];
    if (outcome.status === 'rejected') {
      failures.set(
        target.region,
        outcome.reason instanceof ApiFailure ? outcome.reason : new ApiFailure('NETWORK_ERROR', 0),
      );
      continue;
    }
    const options = outcome.value;
    if (!challengeBytes(options.challenge) || (first !== null && options.rpId !== first.rpId)) {
      failures.set(target.region, new ApiFailure('UNEXPECTED_RESPONSE', 200));
      continue;
    }
    first ??= options;
    regions.push({ region: target.region, baseUrl: target.baseUrl });
    challenges.push(options.challenge);
    if (typeof options.timeout === 'number') timeouts.push(options.timeout);
  }

  if (first === null) {
    const all = [...failures.values()];
    const rateLimited = all.filter((failure) => failure.code === 'TOO_MANY_REQUESTS');
    if (rateLimited.length > 0 && rateLimited.length === all.length) throw latestUnavailable(rateLimited);
    throw all.find((failure) => failure.code !== 'TOO_MANY_REQUESTS') ?? new ApiFailure('UNEXPECTED_RESPONSE', 0);
  }
  // The shortest time any region allows: every challenge must still be alive when the assertion comes back.
  return {
    optionsJSON: {
      ...first,
      challenge: concatChallenges(challenges),
      ...(timeouts.length > 0 ? { timeout: Math.min(...timeouts) } : {}),
      userVerification: 'required',
    },
    regions,
    failures,
  };
}
