import { ApiError } from '../../errors';
import { bearerToken } from '../../http/auth';
import { clientAddress, type SignInClient } from '../../shared/client-address';
import { lockouts, signInOutcomes } from '../../metrics/metrics';
import { requireAuth, type PartialHandlers } from '../../http/operations';
import { sendOneTimeCode, verifyOneTimeCode } from './one-time-codes';
import { createCoalertSession, createPasswordSession, endSession, refreshSession } from './sessions.service';
import type { components } from '../../../../generated/core-api';
import type { AuthContext, SessionCaller } from '../../shared/caller';
import type { SessionsDeps } from './sessions.deps';
import type { SessionBody } from './tokens';
import { reauthenticateWithPassword, type Reauthenticated } from './reauthentication';
import { eventClient, type EventClient } from '../security-events';

/**
 * Single sign-on (oidc, saml, skolon) lives in the sso module, which builds on this one; the composition root hands
 * its sign-in to these handlers, so the arrow points one way (sso -> sessions).
 */
export interface SsoSignIn<D extends SessionsDeps = SessionsDeps> {
  createSession(services: D, input: { email: string; ip: string; client?: SignInClient }): Promise<SessionBody>;
  /** The SSO branches of `createSessionChallenge`; undefined when the body is not an SSO challenge. */
  createChallenge(
    services: D,
    auth: SessionCaller,
    sessionId: string,
    body: components['schemas']['CreateChallengeRequest'],
  ): Promise<components['schemas']['ChallengeResult'] | undefined>;
  /** The SSO branches of `verifySessionChallenge`; undefined when the body is not an SSO answer. */
  verifyChallenge(
    services: D,
    auth: SessionCaller,
    sessionId: string,
    body: components['schemas']['VerifyChallengeRequest'],
    client?: EventClient,
  ): Promise<SessionBody | undefined>;
}

/**
 * Passkeys live in the passkeys module, which builds on this one (passkeys -> sessions): the composition root hands
 * its sign-in to these handlers, as it does single sign-on's.
 */
export interface PasskeySignIn<D extends SessionsDeps = SessionsDeps> {
  /** `POST /sessions` with `grantType: passkey`. */
  createSession(
    services: D,
    input: { credential: PasskeyCredential; ip: string; client?: EventClient },
  ): Promise<SessionBody>;
  /** `POST /sessions/{id}/challenges` with `passkey`: request options for the session user's passkeys. */
  createChallenge(
    services: D,
    auth: SessionCaller,
    sessionId: string,
  ): Promise<components['schemas']['PasskeyRequestOptions']>;
  /** `PATCH /sessions/{id}` with `passkey`: the second factor proven by one of the user's passkeys. */
  verifyChallenge(
    services: D,
    auth: SessionCaller,
    sessionId: string,
    input: { credential: PasskeyCredential; ip: string; client?: EventClient },
  ): Promise<SessionBody>;
  /** `POST /sessions/{id}/reauthentication` with `passkey`: the session proves the account's credentials again. */
  reauthenticate(
    services: D,
    auth: AuthContext,
    sessionId: string,
    input: { credential: PasskeyCredential; ip: string },
  ): Promise<Reauthenticated>;
}

export type PasskeyCredential = components['schemas']['PasskeyAuthenticationResponse'];

export interface SignInWays<D extends SessionsDeps = SessionsDeps> {
  sso: SsoSignIn<D>;
  passkey: PasskeySignIn<D>;
}

type CreateSessionBody = components['schemas']['CreateSessionRequest'];

function startByGrant<D extends SessionsDeps>(
  services: D,
  ways: SignInWays<D>,
  body: CreateSessionBody,
  ip: string,
  client: EventClient,
): Promise<SessionBody> {
  switch (body.grantType) {
    case 'password':
      return createPasswordSession(services, {
        email: body.email,
        password: body.password,
        ip,
        event: { client, method: 'password' },
      });
    case 'coAlertCode':
      return createCoalertSession(services, { code: body.code, ip, event: { client, method: 'coalert' } });
    case 'sso':
      return ways.sso.createSession(services, {
        email: body.email,
        ip,
        client: { userAgent: client.userAgent, network: client.network },
      });
    case 'passkey':
      return ways.passkey.createSession(services, { credential: body.credential, ip, client });
    default:
      throw unknownBody();
  }
}

// Anything that is neither this module's nor single sign-on's is a body the contract let through.
const unknownBody = () => new ApiError('BAD_REQUEST', { message: 'Unknown challenge' });

export const sessionsHandlers = <D extends SessionsDeps>(
  services: D,
  ways: SignInWays<D>,
): PartialHandlers<
  | 'createSession'
  | 'refreshSession'
  | 'deleteSession'
  | 'createSessionChallenge'
  | 'verifySessionChallenge'
  | 'reauthenticateSession'
> => ({
  async createSession({ body, req }) {
    const ip = clientAddress(req);
    const method = body.grantType;
    // The door admitted the request by this header (http/admission.ts): it must not have said something else.
    const announced = req.headers['cosafe-grant-type'];
    if (announced !== undefined && announced !== method)
      throw new ApiError('BAD_REQUEST', {
        message: "cosafe-grant-type is not the body's grantType",
        issues: [
          { where: 'header', path: 'cosafe-grant-type', message: `must equal the body's grantType (${method})` },
        ],
      });
    try {
      const client = eventClient(services.config.region, ip, req.headers['user-agent']);
      const session = await startByGrant(services, ways, body, ip, client);
      signInOutcomes.inc({ method, outcome: 'success' });
      return { status: 201, body: session };
    } catch (error) {
      const code = error instanceof ApiError ? error.code : 'INTERNAL_ERROR';
      signInOutcomes.inc({ method, outcome: code.toLowerCase() });
      if (code === 'TOO_MANY_REQUESTS') lockouts.inc({ kind: method });
      throw error;
    }
  },

  async refreshSession({ path, req }) {
    const refreshToken = bearerToken(req);
    return { status: 200, body: await refreshSession(services, { sessionId: path.id, refreshToken }) };
  },

  async deleteSession(ctx) {
    const client = eventClient(services.config.region, clientAddress(ctx.req), ctx.req.headers['user-agent']);
    await endSession(services, { caller: requireAuth(ctx), sessionId: ctx.path.id, client });
    return { status: 204 };
  },

  async createSessionChallenge(ctx) {
    const { body, path } = ctx;
    const auth = requireAuth(ctx);
    const language = ctx.req.headers['accept-language'];
    if ('otpEmail' in body)
      return { status: 201, body: await sendOneTimeCode(services, auth, path.id, 'otpEmail', language) };
    if ('otpSms' in body)
      return { status: 201, body: await sendOneTimeCode(services, auth, path.id, 'otpSms', language) };
    if ('passkey' in body) return { status: 201, body: await ways.passkey.createChallenge(services, auth, path.id) };
    const challenge = await ways.sso.createChallenge(services, auth, path.id, body);
    if (challenge) return { status: 201, body: challenge };
    throw unknownBody();
  },

  async verifySessionChallenge(ctx) {
    const { body, path } = ctx;
    const auth = requireAuth(ctx);
    const ip = clientAddress(ctx.req);
    const client = eventClient(services.config.region, ip, ctx.req.headers['user-agent']);
    if ('otpEmail' in body)
      return {
        status: 200,
        body: await verifyOneTimeCode(services, auth, path.id, 'otpEmail', body.otpEmail.code, ip, client),
      };
    if ('otpSms' in body)
      return {
        status: 200,
        body: await verifyOneTimeCode(services, auth, path.id, 'otpSms', body.otpSms.code, ip, client),
      };
    if ('passkey' in body)
      return {
        status: 200,
        body: await ways.passkey.verifyChallenge(services, auth, path.id, { credential: body.passkey, ip, client }),
      };
    const answered = await ways.sso.verifyChallenge(services, auth, path.id, body, client);
    if (answered) return { status: 200, body: answered };
    throw unknownBody();
  },

  async reauthenticateSession(ctx) {
    const { body, path } = ctx;
    const auth = requireAuth(ctx);
    const ip = clientAddress(ctx.req);
    if ('password' in body)
      return {
        status: 200,
        body: await reauthenticateWithPassword(services, auth, { sessionId: path.id, password: body.password, ip }),
      };
    return {
      status: 200,
      body: await ways.passkey.reauthenticate(services, auth, path.id, { credential: body.passkey, ip }),
    };
  },
});
