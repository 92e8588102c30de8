import type { PartialHandlers } from '../../http/operations';
import { checkPassword } from '../../security/credentials';
import { policies } from '../../security/throttle';
import type { Services } from '../../services';
import { clientAddress } from '../sessions/sessions.handlers';
import { accountByEmailHash, type SignInAccount } from '../sessions/sessions.repository';
import { loginLockoutKeys, recordLoginFailure } from '../sessions/sessions.service';

/**
 * Is there an account with this identity hash here, and is this its password? Unknown hash and wrong password
 * answer the same after the same work; failures count towards the same lockouts as sign-in.
 */
export async function probeHash(services: Services, input: { hash: string; password: string; ip: string }) {
  // Rate limits, lockouts and the account in one round trip.
  const { alongside } = await services.throttle.guard({
    consume: [
      [`probe:address:${input.ip}`, policies.probePerAddress],
      [`probe:hash:${input.hash}`, policies.probePerHash],
    ],
    lockoutKeys: loginLockoutKeys(input.hash, input.ip),
    alongside: { account: accountByEmailHash.with(input.hash) },
  });
  const user = (alongside.account as SignInAccount | null) ?? undefined;
  const available = await checkPassword(services, user, input.password, { leaveProof: input.hash });
  // A wrong password counts against the identity hash and the address. "No account here" counts only against
  // the hash (so lockouts look the same whether or not the account exists): the sign-in app probes every
  // region, and one office's logins must not lock that office out of the regions its accounts do not live in.
  if (!available) await recordLoginFailure(services, input.hash, user?.password_hash ? input.ip : null);
  return { region: services.config.region, baseUrl: services.config.publicBaseUrl, available };
}

export const probesHandlers: PartialHandlers<'probeHash'> = {
  async probeHash({ path, body, req, services }) {
    return { status: 200, body: await probeHash(services, { hash: path.hash, password: body.password, ip: clientAddress(req) }) };
  },
};
