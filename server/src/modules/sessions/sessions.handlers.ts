import { ApiError } from '../../errors';
import { bearerToken } from '../../http/auth';
import { clientAddress } from '../../shared/client-address';
import { lockouts, signInOutcomes } from '../../metrics/metrics';
import { requireAuth, type PartialHandlers } from '../../http/operations';
import { sendOneTimeCode, verifyOneTimeCode } from './one-time-codes';
import { createCoalertSession, createPasswordSession, endSession, refreshSession } from './sessions.service';
import type { components } from '../../../../generated/core-api';
import type { SessionCaller } from '../../shared/caller';
import type { Services } from '../../services';
import type { SessionBody } from './tokens';

/**
 * Single sign-on (oidc, saml, skolon) lives in the sso module, which builds on this one; the composition root hands
 * its sign-in to these handlers, so the arrow points one way (sso -> sessions).
 */
export interface SsoSignIn {
  createSession(services: Services, input: { email: string; ip: string }): Promise<SessionBody>;
  /** The SSO branches of `createSessionChallenge`; undefined when the body is not an SSO challenge. */
  createChallenge(
    services: Services,
    auth: SessionCaller,
    sessionId: string,
    body: components['schemas']['CreateChallengeRequest'],
  ): Promise<components['schemas']['ChallengeResult'] | undefined>;
  /** The SSO branches of `verifySessionChallenge`; undefined when the body is not an SSO answer. */
  verifyChallenge(
    services: Services,
    auth: SessionCaller,
    sessionId: string,
    body: components['schemas']['VerifyChallengeRequest'],
  ): Promise<SessionBody | undefined>;
}

type CreateSessionBody = components['schemas']['CreateSessionRequest'];

function startByGrant(services: Services, sso: SsoSignIn, body: CreateSessionBody, ip: string): Promise<SessionBody> {
  switch (body.grantType) {
    case 'password':
      return createPasswordSession(services, { email: body.email, password: body.password, ip });
    case 'coAlertCode':
      return createCoalertSession(services, { code: body.code, ip });
    case 'sso':
      return sso.createSession(services, { email: body.email, ip });
    default:
      throw unknownBody();
  }
}

// Anything that is neither this module's nor single sign-on's is a body the contract let through.
const unknownBody = () => new ApiError('BAD_REQUEST', { message: 'Unknown challenge' });

export const sessionsHandlers = (
  sso: SsoSignIn,
): PartialHandlers<
  'createSession' | 'refreshSession' | 'deleteSession' | 'createSessionChallenge' | 'verifySessionChallenge'
> => ({
  async createSession({ body, req, services }) {
    const ip = clientAddress(req);
    const method = body.grantType;
    try {
      const session = await startByGrant(services, sso, body, ip);
      signInOutcomes.inc({ method, outcome: 'success' });
      return { status: 201, body: session };
    } catch (error) {
      const code = error instanceof ApiError ? error.code : 'INTERNAL_ERROR';
      signInOutcomes.inc({ method, outcome: code.toLowerCase() });
      if (code === 'TOO_MANY_REQUESTS') lockouts.inc({ kind: method });
      throw error;
    }
  },

  async refreshSession({ path, req, services }) {
    const refreshToken = bearerToken(req);
    return { status: 200, body: await refreshSession(services, { sessionId: path.id, refreshToken }) };
  },

  async deleteSession(ctx) {
    await endSession(ctx.services, { caller: requireAuth(ctx), sessionId: ctx.path.id });
    return { status: 204 };
  },

  async createSessionChallenge(ctx) {
    const { body, path, services } = ctx;
    const auth = requireAuth(ctx);
    const language = ctx.req.headers['accept-language'];
    if ('otpEmail' in body)
      return { status: 201, body: await sendOneTimeCode(services, auth, path.id, 'otpEmail', language) };
    if ('otpSms' in body)
      return { status: 201, body: await sendOneTimeCode(services, auth, path.id, 'otpSms', language) };
    const challenge = await sso.createChallenge(services, auth, path.id, body);
    if (challenge) return { status: 201, body: challenge };
    throw unknownBody();
  },

  async verifySessionChallenge(ctx) {
    const { body, path, services } = ctx;
    const auth = requireAuth(ctx);
    const ip = clientAddress(ctx.req);
    if ('otpEmail' in body)
      return {
        status: 200,
        body: await verifyOneTimeCode(services, auth, path.id, 'otpEmail', body.otpEmail.code, ip),
      };
    if ('otpSms' in body)
      return { status: 200, body: await verifyOneTimeCode(services, auth, path.id, 'otpSms', body.otpSms.code, ip) };
    const answered = await sso.verifyChallenge(services, auth, path.id, body);
    if (answered) return { status: 200, body: answered };
    throw unknownBody();
  },
});
