// Server CPU per passwordless passkey sign-in (authentication options + the passkey grant, as the sign-in app does
// it for one region) against a password sign-in's (the session alone), measured the same way (sign-in-cost.ts):
// passkeys of bench users registered first through the API, then closed-loop rounds. The assertions are signed
// in this process by the tests' software authenticator (ES256), with a counter of 0 as synced passkeys keep it, so
// loops may share a passkey.
import http from 'node:http';
import { SoftAuthenticator } from '../test/support/soft-authenticator';
import { load, request, type Answer, type RequestSpec } from './load';
import type { Row } from './region';
import { signInCost } from './sign-in-cost';

const v1 = { 'cosafe-core-api-version': '1' };
const password = 'Demo-Password-1!';
const passkeyUsers = 40;
const fmt = (n: number, digits = 2) => n.toFixed(digits);

async function call(port: number, spec: RequestSpec, expected: number): Promise<Answer> {
  const agent = new http.Agent({ keepAlive: false });
  const answer = await request(port, spec, agent);
  if (answer.status !== expected) throw new Error(`${spec.method} ${spec.path}: ${answer.status} ${answer.body}`);
  return answer;
}

/** A bench user signs in with the password and registers a passkey of a software authenticator. */
async function enrol(port: number, email: string, address: string): Promise<SoftAuthenticator> {
  const json = { 'content-type': 'application/json', 'x-forwarded-for': address };
  const session = JSON.parse(
    (
      await call(
        port,
        {
          method: 'POST',
          path: '/core/v1/sessions',
          headers: { ...v1, ...json },
          body: JSON.stringify({ grantType: 'password', email, password }),
        },
        201,
      )
    ).body,
  ) as { accessToken: string };
  const bearer = { ...v1, ...json, authorization: `Bearer ${session.accessToken}` };
  const options = JSON.parse(
    (await call(port, { method: 'POST', path: '/core/v1/passkeys/registration-options', headers: bearer }, 201)).body,
  );
  const authenticator = new SoftAuthenticator('ES256', { counter: 0 });
  await call(
    port,
    {
      method: 'POST',
      path: '/core/v1/passkeys',
      headers: bearer,
      body: JSON.stringify({ credential: authenticator.register(options) }),
    },
    201,
  );
  return authenticator;
}

export async function benchPasskeys(
  label: string,
  port: number,
  pid: number,
  ms: number,
  nextUser: () => string,
  nextAddress: () => string,
): Promise<Row[]> {
  const authenticators: SoftAuthenticator[] = [];
  for (let i = 0; i < passkeyUsers; i++) authenticators.push(await enrol(port, nextUser(), nextAddress()));

  // Options, then the grant: two requests per sign-in, one loop each.
  const step: ('options' | 'grant')[] = [];
  const challenge: string[] = [];
  let turn = 0;
  let signedIn = 0;
  const passkeyStep = (w: number): RequestSpec => {
    if (step[w] !== 'options' || !challenge[w]) {
      step[w] = 'options';
      challenge[w] = '';
      return {
        method: 'POST',
        path: '/core/v1/passkeys/authentication-options',
        headers: { ...v1, 'x-forwarded-for': nextAddress() },
      };
    }
    step[w] = 'grant';
    const credential = authenticators[turn++ % authenticators.length].authenticate({
      challenge: challenge[w],
      rpId: 'localhost',
    });
    return {
      method: 'POST',
      path: '/core/v1/sessions',
      headers: { ...v1, 'x-forwarded-for': nextAddress(), 'cosafe-grant-type': 'passkey' },
      body: JSON.stringify({ grantType: 'passkey', credential }),
    };
  };
  const onAnswer = (w: number, answer: Answer) => {
    if (step[w] === 'options' && answer.status === 201) challenge[w] = JSON.parse(answer.body).challenge;
    else if (step[w] === 'grant') {
      if (answer.status === 201) signedIn++;
      challenge[w] = '';
    }
  };
  const passkey = await signInCost(
    pid,
    (warm) => {
      signedIn = 0;
      return load({ port, connections: 4, durationMs: warm ? 3000 : ms, next: passkeyStep, onAnswer });
    },
    () => signedIn,
  );

  const passwordSpec = (): RequestSpec => ({
    method: 'POST',
    path: '/core/v1/sessions',
    headers: { ...v1, 'x-forwarded-for': nextAddress() },
    body: JSON.stringify({ grantType: 'password', email: nextUser(), password }),
  });
  const passwordRun = await signInCost(
    pid,
    (warm) => load({ port, connections: 4, durationMs: warm ? 3000 : ms, next: passwordSpec, expectStatus: 201 }),
    (r) => r.statuses[201] ?? 0,
  );
  const share = passkey.ratio / passwordRun.ratio;
  return [
    {
      name: `${label}: passwordless passkey sign-in (options + grant, 2 requests)`,
      result: passkey.result,
      note: `${passkey.note}; ${fmt(share)} × the CPU of a password sign-in measured beside it`,
    },
    {
      name: `${label}: password sign-in beside it (session only, 1 request)`,
      result: passwordRun.result,
      note: passwordRun.note,
    },
  ];
}
