import type { PartialHandlers } from '../../http/operations';
import { clientAddress } from '../../shared/client-address';
import { passwordTokenState, requestPasswordReset, usePasswordToken } from './passwords.service';

export const passwordsHandlers: PartialHandlers<
  'getPasswordSetToken' | 'setPassword' | 'getPasswordResetToken' | 'resetPassword' | 'requestPasswordReset'
> = {
  async getPasswordSetToken({ path, query, req, services }) {
    return {
      status: 200,
      body: {
        state: await passwordTokenState(services, {
          userId: path.userId,
          token: query.token,
          kind: 'set',
          ip: clientAddress(req),
        }),
      },
    };
  },
  async setPassword({ path, body, req, services }) {
    await usePasswordToken(services, {
      userId: path.userId,
      token: body.token,
      password: body.password,
      kind: 'set',
      ip: clientAddress(req),
    });
    return { status: 204 };
  },
  async getPasswordResetToken({ path, query, req, services }) {
    return {
      status: 200,
      body: {
        state: await passwordTokenState(services, {
          userId: path.userId,
          token: query.token,
          kind: 'reset',
          ip: clientAddress(req),
        }),
      },
    };
  },
  async resetPassword({ path, body, req, services }) {
    await usePasswordToken(services, {
      userId: path.userId,
      token: body.token,
      password: body.newPassword,
      kind: 'reset',
      ip: clientAddress(req),
    });
    return { status: 204 };
  },
  async requestPasswordReset({ body, req, services }) {
    await requestPasswordReset(services, {
      emailHash: body.emailHash,
      ip: clientAddress(req),
      acceptLanguage: req.headers['accept-language'],
    });
    return { status: 202 };
  },
};
