// A single sign-on completes with its security event, in the transaction that binds the session to the user the
// identity provider asserted.
import type { TestContext } from '../support/context';
import {
  challenge,
  createSsoTestContext,
  pkce,
  putOidcSettings,
  ssoPage,
  ssoSession,
  ssoTenant,
  verify,
} from '../support/enterprise-fixtures';
import { startOidcPeer, type OidcPeer } from '../support/oidc-peer';

let ctx: TestContext;
let peer: OidcPeer;
beforeAll(async () => {
  peer = await startOidcPeer({ redirectUris: [ssoPage] });
  ctx = await createSsoTestContext();
});
afterAll(async () => {
  await ctx.close();
  await peer.close();
});

test('sign_in_succeeded by oidc once the provider answers; nothing while the session waits for it', async () => {
  const tenant = await ssoTenant(ctx.services, 'oidc');
  const { userInfoEndpoint: _, ...endpoints } = peer.endpoints;
  expect(
    (await putOidcSettings(ctx, tenant, { clientId: peer.clientId, clientSecret: peer.clientSecret, ...endpoints }))
      .status,
  ).toBe(200);
  const session = await ssoSession(ctx, tenant.user.email);
  const { verifier, challenge: codeChallenge } = pkce();
  const state = 'state-events';
  const started = await challenge(ctx, session, {
    oidc: { codeChallenge, codeChallengeMethod: 'S256', redirectUri: ssoPage, state },
  });
  expect(started.status).toBe(201);
  peer.signInAs(tenant.user.email);
  const { code } = await peer.authorize(started.body.authorizationUrl);
  const eventsOf = () =>
    ctx.services.db.selectFrom('security_events').selectAll().where('user_id', '=', tenant.user.id).execute();
  expect(await eventsOf()).toEqual([]);
  const res = await verify(ctx, session, { oidc: { authorizationCode: code, codeVerifier: verifier, state } });
  expect(res.status).toBe(200);
  expect((await eventsOf()).map((e) => [e.kind, e.actor_type, e.details.method])).toEqual([
    ['sign_in_succeeded', 'self', 'oidc'],
  ]);
});
