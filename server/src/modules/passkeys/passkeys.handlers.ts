import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { requireAuth, type PartialHandlers } from '../../http/operations';
import { clientAddress } from '../../shared/client-address';
import { pageParams } from '../../shared/paging';
import { authenticationOptions } from './passkey-sign-in';
import {
  deletePasskey,
  listPasskeys,
  registerPasskey,
  registrationOptions,
  removePasskeyByLink,
  updatePasskey,
} from './passkeys.service';
import type { PasskeysDeps } from './passkeys.deps';
import type { Request } from 'express';
import { eventClient } from '../security-events';

const language = (req: { headers: Record<string, string | string[] | undefined> }) => {
  const value = req.headers['accept-language'];
  return typeof value === 'string' ? value : undefined;
};

/** The client of a request, for its security event. */
const fromOf = (services: PasskeysDeps) => (req: Request) =>
  eventClient(services.config.region, clientAddress(req), req.headers['user-agent']);

export const passkeysHandlers = (
  services: PasskeysDeps,
): PartialHandlers<
  | 'listPasskeys'
  | 'createPasskey'
  | 'updatePasskey'
  | 'deletePasskey'
  | 'createPasskeyRegistrationOptions'
  | 'createPasskeyAuthenticationOptions'
  | 'removePasskeyByLink'
> => ({
  listPasskeys: async (ctx) => ({
    status: 200,
    body: await listPasskeys(services, requireAuth(ctx), pageParams(ctx.query)),
  }),
  createPasskeyRegistrationOptions: async (ctx) => ({
    status: 201,
    body: await registrationOptions(services, requireAuth(ctx)),
  }),
  createPasskey: async (ctx) => ({
    status: 201,
    body: await registerPasskey(services, requireAuth(ctx), {
      name: ctx.body.name,
      // The contract's shape of RegistrationResponseJSON (its members checked by the validator).
      credential: ctx.body.credential as unknown as RegistrationResponseJSON,
      acceptLanguage: language(ctx.req),
      client: fromOf(services)(ctx.req),
    }),
  }),
  updatePasskey: async (ctx) => ({
    status: 200,
    body: await updatePasskey(services, requireAuth(ctx), ctx.path.passkeyId, ctx.body.name),
  }),
  deletePasskey: async (ctx) => {
    await deletePasskey(services, requireAuth(ctx), ctx.path.passkeyId, language(ctx.req), fromOf(services)(ctx.req));
    return { status: 204 };
  },
  createPasskeyAuthenticationOptions: async (ctx) => ({
    status: 201,
    body: await authenticationOptions(services, clientAddress(ctx.req)),
  }),
  removePasskeyByLink: async (ctx) => {
    await removePasskeyByLink(services, {
      token: ctx.body.token,
      ip: clientAddress(ctx.req),
      acceptLanguage: language(ctx.req),
      client: fromOf(services)(ctx.req),
    });
    return { status: 204 };
  },
});
