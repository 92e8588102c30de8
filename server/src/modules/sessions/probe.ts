import { tooManyRequests } from '../../errors';
import type { SessionsDeps } from './sessions.deps';
import { checkPassword } from './credentials';
import { limitAddress, lockoutValues, loginAttempt, succeeded, verdict } from './lockouts';
import { probeAccount } from './probe.repository';

/**
 * Is there an account with this identity hash here, and is this its password? Unknown hash and wrong password
 * answer the same after the same work. A probe is held to exactly the rules of a password sign-in (the same
 * lockouts, the same step-up at the per-identity ceiling) and to no budget of its own: nothing keyed by the
 * identity alone refuses the right password from an address the identity signs in from.
 */
export async function probeHash(services: SessionsDeps, input: { hash: string; password: string; ip: string }) {
  // Lockouts, the attempt's reservation and the account in one round trip: the attempt is counted as a failure
  // before argon2 runs (so concurrent guesses get no more checks than sequential ones), the same way whether or
  // not the account lives here, and given back when the password is right.
  const now = services.now();
  const ip = limitAddress(services, input.ip);
  const guard = { attempt: loginAttempt(services, input.hash, ip) };
  const row = await probeAccount(services.db, { ...lockoutValues(now, guard), emailHash: input.hash });
  const { reserved, stepUp } = await verdict(services, row, now, guard);
  const user = row.account ?? undefined;
  // A success gives the attempt back in the statement that leaves the proof: it ends the identity's failures only
  // when the sign-in that follows needs nothing more (no second factor, no step-up). The session that follows
  // makes the source familiar once it is complete; a probe alone does not.
  const complete = stepUp === null && user !== undefined && !user.second_factor;
  const available = await checkPassword(services, user, input.password, {
    leaveProof: input.hash,
    giveBack: succeeded(services, { hash: input.hash, ip, reserved, complete, familiar: false }),
  });
  // At the ceiling, a wrong password is refused as a sign-in's would be; the right one goes on to a step-up.
  if (!available && stepUp) throw tooManyRequests(stepUp);
  return { region: services.config.region, baseUrl: services.config.publicBaseUrl, available };
}
