#!/usr/bin/env node
// A development OpenID Provider for the 'Log in with SSO' button (never for production): oidc-provider (a dev
// dependency of the server workspace) on the loopback interface, with one confidential client (authorization
// code + PKCE S256, client_secret_basic) and its built-in development login form, where any login and any
// password sign in. The demo account is sso-user@sso.demo.test (a login without '@' gets '@sso.demo.test' added);
// the seed of a region started with DEV_SSO_ISSUER binds the domain sso.demo.test to a demo tenant whose OIDC
// client is this one. Consent is implied (a first-party client); keys and sessions live in memory only.
//
// Configuration (environment), shared with the region (server/src/config.ts) where the names are the same:
//   DEV_IDP_PORT             port (default 4300); DEV_IDP_HOST (default 127.0.0.1)
//   DEV_SSO_ISSUER           the issuer URL browsers and the region use (default http://127.0.0.1:<port>)
//   DEV_SSO_CLIENT_ID        client id (default sign-in-dev)
//   DEV_SSO_CLIENT_SECRET    client secret (default dev-sso-client-secret-not-for-production)
//   DEV_SSO_REDIRECT_URIS    comma-separated redirect URIs (default http://localhost:5173/login/sso)
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

if (process.env.NODE_ENV === 'production') {
  console.error('dev-idp is for development only');
  process.exit(1);
}

const root = resolve(import.meta.dirname, '..');
const requireFromServer = createRequire(join(root, 'server', 'package.json'));
const { default: Provider } = await import(pathToFileURL(requireFromServer.resolve('oidc-provider')).href);

const port = Number(process.env.DEV_IDP_PORT ?? 4300);
const host = process.env.DEV_IDP_HOST ?? '127.0.0.1';
const issuer = (process.env.DEV_SSO_ISSUER ?? `http://127.0.0.1:${port}`).replace(/\/+$/, '');
const clientId = process.env.DEV_SSO_CLIENT_ID ?? 'sign-in-dev';
const clientSecret = process.env.DEV_SSO_CLIENT_SECRET ?? 'dev-sso-client-secret-not-for-production';
const redirectUris = (process.env.DEV_SSO_REDIRECT_URIS ?? 'http://localhost:5173/login/sso')
  .split(',')
  .map((uri) => uri.trim())
  .filter(Boolean);
const DEMO_DOMAIN = 'sso.demo.test';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const emailOf = (login) => {
  const trimmed = String(login).trim().toLowerCase();
  return trimmed.includes('@') ? trimmed : `${trimmed}@${DEMO_DOMAIN}`;
};

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uris: redirectUris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  jwks: {
    keys: [
      {
        ...privateKey.export({ format: 'jwk' }),
        kid: `dev-${randomBytes(4).toString('hex')}`,
        use: 'sig',
        alg: 'RS256',
      },
    ],
  },
  cookies: { keys: [randomBytes(32).toString('base64url')] },
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  // The ID token carries email and name (the region reads the email from it, not from user info).
  conformIdTokenClaims: false,
  pkce: { required: () => true },
  features: { devInteractions: { enabled: true } },
  // A first-party client: the user is not asked to consent.
  async loadExistingGrant(ctx) {
    const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
    if (grantId) return ctx.oidc.provider.Grant.find(grantId);
    const grant = new ctx.oidc.provider.Grant({
      clientId: ctx.oidc.client.clientId,
      accountId: ctx.oidc.session.accountId,
    });
    grant.addOIDCScope('openid email profile');
    await grant.save();
    return grant;
  },
  async findAccount(_ctx, sub) {
    const email = emailOf(sub);
    return { accountId: sub, claims: async () => ({ sub, email, email_verified: true, name: email.split('@')[0] }) };
  },
});

const server = provider.listen(port, host, () => {
  console.log(
    `Development identity provider: ${issuer} (client ${clientId}; redirect URIs ${redirectUris.join(', ')})`,
  );
  console.log(`  sign in as sso-user@${DEMO_DOMAIN} with any password`);
});

function stop() {
  server.close(() => process.exit(0));
  server.closeAllConnections?.();
  setTimeout(() => process.exit(0), 2000).unref();
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
