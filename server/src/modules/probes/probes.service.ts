import { checkPassword } from '../../security/credentials';
import { lockoutValues, lockoutVerdict, policies } from '../../security/throttle';
import type { Services } from '../../services';
import { loginAttempt, loginRefund } from '../sessions';
import { probeAccount } from './probes.repository';

/**
 * Is there an account with this identity hash here, and is this its password? Unknown hash and wrong password
 * answer the same after the same work; failures count towards the same lockouts as sign-in.
 */
export async function probeHash(services: Services, input: { hash: string; password: string; ip: string }) {
  // Rate limits, lockouts, the attempt's reservation and the account in one round trip: the attempt is counted
  // as a failure before argon2 runs (so concurrent guesses get no more checks than sequential ones), the same
  // way whether or not the account lives here, and given back when the password is right.
  const now = services.now();
  const guard = {
    consume: [
      [`probe:address:${input.ip}`, policies.probePerAddress],
      [`probe:hash:${input.hash}`, policies.probePerHash],
    ] as [string, typeof policies.probePerAddress][],
    attempt: loginAttempt(services, input.hash, input.ip),
  };
  const row = await probeAccount(services.db, { ...lockoutValues(now, guard), emailHash: input.hash });
  const { reserved } = lockoutVerdict(row, now, guard);
  const user = row.account ?? undefined;
  // A success gives the attempt back in the statement that leaves the proof. The session that follows makes the
  // source familiar; a probe alone does not.
  const available = await checkPassword(services, user, input.password, {
    leaveProof: input.hash,
    refund: loginRefund(input.hash, input.ip, reserved),
  });
  return { region: services.config.region, baseUrl: services.config.publicBaseUrl, available };
}
