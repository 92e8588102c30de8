import { asFailure, latestUnavailable } from '../api/api-failure';
import { clientFor } from '../api/client';
import { requestPasswordReset } from '../api/passwords';
import type { RegionTarget } from '../config/config';
import { isProbedFor } from '../config/regions';
import { hashEmail } from '../login/email-hash';

export interface ResetRequest {
  email: string;
  clientType: string | null;
  targets: readonly RegionTarget[];
  /** The language the page is showing: the email is written in it unless the user chose one. */
  language: string;
}

/**
 * Asks every region the client may sign in at (Brazil is skipped for the academy), in parallel, to email a reset
 * link to the account with this email's identity hash. Each region answers the same whether or not the account
 * lives there, so the user sees one confirmation either way. Throws when any region did not accept the request
 * (the account may live there): a 429 first, with the latest wait.
 */
export async function requestResetEverywhere({ email, clientType, targets, language }: ResetRequest): Promise<void> {
  const emailHash = await hashEmail(email);
  const outcomes = await Promise.allSettled(
    targets
      .filter((target) => isProbedFor(target.region, clientType))
      .map((target) => requestPasswordReset(clientFor(target.baseUrl), emailHash, language)),
  );
  const failures = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [asFailure(outcome.reason)] : []));
  const rateLimited = failures.filter((failure) => failure.code === 'TOO_MANY_REQUESTS');
  if (rateLimited.length > 0) throw latestUnavailable(rateLimited);
  if (failures.length > 0) throw failures[0];
}
