import { ApiError } from '../../errors';
import { bearerToken } from '../../http/auth';
import { requireAuth, type PartialHandlers } from '../../http/operations';
import { sendOneTimeCode, verifyOneTimeCode } from './one-time-codes';
import { createCoalertSession, createPasswordSession, endSession, refreshSession } from './sessions.service';
import { createSsoChallenge, createSsoSession, verifySsoChallenge } from '../sso/sso.handlers';

export const clientAddress = (req: { ip?: string; socket: { remoteAddress?: string } }) => req.ip ?? req.socket.remoteAddress ?? 'unknown';

// Single sign-on (oidc, saml, skolon) lives in modules/sso; anything else is a body the contract let through.
const unknownBody = () => new ApiError('BAD_REQUEST', { message: 'Unknown challenge' });

export const sessionsHandlers: PartialHandlers<'createSession' | 'refreshSession' | 'deleteSession' | 'createSessionChallenge' | 'verifySessionChallenge'> = {
  async createSession({ body, req, services }) {
    const ip = clientAddress(req);
    switch (body.grantType) {
      case 'password':
        return { status: 201, body: await createPasswordSession(services, { email: body.email, password: body.password, ip }) };
      case 'coAlertCode':
        return { status: 201, body: await createCoalertSession(services, { code: body.code, ip }) };
      case 'sso':
        return { status: 201, body: await createSsoSession(services, { email: body.email, ip }) };
      default:
        throw unknownBody();
    }
  },

  async refreshSession({ path, req, services }) {
    const refreshToken = bearerToken(req);
    return { status: 200, body: await refreshSession(services, { sessionId: path.id, refreshToken }) };
  },

  async deleteSession(ctx) {
    await endSession(ctx.services, { userId: requireAuth(ctx).userId, sessionId: ctx.path.id });
    return { status: 204 };
  },

  async createSessionChallenge(ctx) {
    const { body, path, services } = ctx;
    const auth = requireAuth(ctx);
    if ('otpEmail' in body) return { status: 201, body: await sendOneTimeCode(services, auth, path.id, 'otpEmail') };
    if ('otpSms' in body) return { status: 201, body: await sendOneTimeCode(services, auth, path.id, 'otpSms') };
    const sso = await createSsoChallenge(services, auth, path.id, body);
    if (sso) return { status: 201, body: sso };
    throw unknownBody();
  },

  async verifySessionChallenge(ctx) {
    const { body, path, services } = ctx;
    const auth = requireAuth(ctx);
    if ('otpEmail' in body) return { status: 200, body: await verifyOneTimeCode(services, auth, path.id, 'otpEmail', body.otpEmail.code) };
    if ('otpSms' in body) return { status: 200, body: await verifyOneTimeCode(services, auth, path.id, 'otpSms', body.otpSms.code) };
    const sso = await verifySsoChallenge(services, auth, path.id, body);
    if (sso) return { status: 200, body: sso };
    throw unknownBody();
  },
};
