import type { Request } from 'express';
import type { PartialHandlers } from '../../http/operations';
import { clientAddress, clientKey } from '../../shared/client-address';
import { eventClient } from '../security-events';
import { passwordTokenState, requestPasswordReset, usePasswordToken } from './passwords.service';
import type { PasswordsDeps } from './passwords.deps';

/** The link's token, from the header the contract declares (validated there; never a query parameter). */
const linkToken = (req: Request) => String(req.headers['cosafe-password-token']);

export const passwordsHandlers = (
  services: PasswordsDeps,
): PartialHandlers<
  'getPasswordSetToken' | 'setPassword' | 'getPasswordResetToken' | 'resetPassword' | 'requestPasswordReset'
> => ({
  async getPasswordSetToken({ path, req }) {
    return {
      status: 200,
      body: {
        state: await passwordTokenState(services, {
          userId: path.userId,
          token: linkToken(req),
          kind: 'set',
          ip: clientKey(req, services.config.runtime.clientIpv6Prefix),
        }),
      },
    };
  },
  async setPassword({ path, body, req }) {
    await usePasswordToken(services, {
      userId: path.userId,
      token: body.token,
      password: body.password,
      kind: 'set',
      ip: clientKey(req, services.config.runtime.clientIpv6Prefix),
      client: eventClient(services.config.region, clientAddress(req), req.headers['user-agent']),
    });
    return { status: 204 };
  },
  async getPasswordResetToken({ path, req }) {
    return {
      status: 200,
      body: {
        state: await passwordTokenState(services, {
          userId: path.userId,
          token: linkToken(req),
          kind: 'reset',
          ip: clientKey(req, services.config.runtime.clientIpv6Prefix),
        }),
      },
    };
  },
  async resetPassword({ path, body, req }) {
    await usePasswordToken(services, {
      userId: path.userId,
      token: body.token,
      password: body.newPassword,
      kind: 'reset',
      ip: clientKey(req, services.config.runtime.clientIpv6Prefix),
      client: eventClient(services.config.region, clientAddress(req), req.headers['user-agent']),
    });
    return { status: 204 };
  },
  async requestPasswordReset({ body, req }) {
    await requestPasswordReset(services, {
      emailHash: body.emailHash,
      ip: clientKey(req, services.config.runtime.clientIpv6Prefix),
      acceptLanguage: req.headers['accept-language'],
    });
    return { status: 202 };
  },
});
