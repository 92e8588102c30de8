// A real OpenID Provider (the oidc-provider package) on 127.0.0.1, for sign-in tests: one confidential client,
// accounts that are email addresses, a login step the test decides (who signs in), and a browser that follows
// the redirects with cookies until the provider sends it back to the redirect URI with a code.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync } from 'node:crypto';
import './quiet-oidc-provider';
import Provider from 'oidc-provider';

export interface OidcPeer {
  issuer: string;
  clientId: string;
  clientSecret: string;
  endpoints: {
    authorizationEndpoint: string;
    tokenEndpoint: string;
    jwksUri: string;
    issuer: string;
    userInfoEndpoint: string;
  };
  /** Who the next login at the provider signs in as, and extra claims for them. */
  signInAs(email: string, claims?: Record<string, unknown>): void;
  /** Follows `authorizationUrl` like a browser; answers the code and state sent back to the redirect URI. */
  authorize(authorizationUrl: string): Promise<{ code: string; state: string }>;
  close(): Promise<void>;
}

/** How the provider signs ID tokens: with a key of its JWKS, or (HS256) with the client's secret. */
export type IdTokenAlg = 'RS256' | 'PS256' | 'ES256' | 'EdDSA' | 'HS256';

/** The provider's signing keys: one RSA key (RS256) unless an algorithm is chosen, then one key of each type. */
function signingKeys(alg: IdTokenAlg | undefined) {
  const jwk = (pair: ReturnType<typeof generateKeyPairSync>, kid: string) => ({
    ...pair.privateKey.export({ format: 'jwk' }),
    kid,
    use: 'sig',
  });
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  if (alg === undefined) return [{ ...jwk(rsa, 'test-key-1'), alg: 'RS256' }];
  return [
    jwk(rsa, 'rsa'),
    jwk(generateKeyPairSync('ec', { namedCurve: 'P-256' }), 'ec'),
    jwk(generateKeyPairSync('ed25519'), 'okp'),
  ];
}

export async function startOidcPeer(options: {
  redirectUris: string[];
  claimsScope?: Record<string, string[]>;
  idTokenSigningAlg?: IdTokenAlg;
}): Promise<OidcPeer> {
  let nextLogin: { email: string; claims: Record<string, unknown> } = { email: 'nobody@example.test', claims: {} };
  const extraClaims = new Map<string, Record<string, unknown>>();
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'core-api-test';
  const clientSecret = 'test-client-secret-0123456789abcdef';

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
        ...(options.idTokenSigningAlg ? { id_token_signed_response_alg: options.idTokenSigningAlg } : {}),
      },
    ],
    jwks: { keys: signingKeys(options.idTokenSigningAlg) as never[] },
    enabledJWA: { idTokenSigningAlgValues: ['HS256', 'RS256', 'PS256', 'ES256', 'EdDSA'] },
    cookies: { keys: ['peer-cookie-key'] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', ...(options.claimsScope?.profile ?? [])],
    },
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: async () => ({
        sub,
        email: sub,
        email_verified: true,
        name: sub.split('@')[0],
        ...(extraClaims.get(sub) ?? {}),
      }),
    }),
  } as never);
  const callback = provider.callback();

  // The provider's login and consent pages, answered at once for the account the test chose.
  async function interaction(req: IncomingMessage, res: ServerResponse) {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      extraClaims.set(nextLogin.email, nextLogin.claims);
      return provider.interactionFinished(
        req,
        res,
        { login: { accountId: nextLogin.email } },
        { mergeWithLastSubmission: false },
      );
    }
    const grant = new provider.Grant({ accountId: details.session!.accountId, clientId });
    grant.addOIDCScope('openid email profile');
    return provider.interactionFinished(
      req,
      res,
      { consent: { grantId: await grant.save() } },
      { mergeWithLastSubmission: true },
    );
  }
  server.on('request', (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      interaction(req, res).catch((error) => {
        res.statusCode = 500;
        res.end(String(error));
      });
    } else callback(req, res);
  });

  async function authorize(authorizationUrl: string) {
    const jar = new Map<string, string>();
    let url = authorizationUrl;
    for (let hop = 0; hop < 10; hop++) {
      const res = await fetch(url, {
        redirect: 'manual',
        headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      for (const cookie of res.headers.getSetCookie()) {
        const [pair] = cookie.split(';');
        const eq = pair.indexOf('=');
        jar.set(pair.slice(0, eq), pair.slice(eq + 1));
      }
      const location = res.headers.get('location');
      if (!location)
        throw new Error(`The provider stopped at ${url} with ${res.status}: ${(await res.text()).slice(0, 300)}`);
      const next = new URL(location, url);
      if (!next.href.startsWith(issuer)) {
        const code = next.searchParams.get('code');
        if (!code) throw new Error(`The provider answered an error: ${next.search}`);
        return { code, state: next.searchParams.get('state') ?? '' };
      }
      url = next.href;
    }
    throw new Error('Too many redirects');
  }

  return {
    issuer,
    clientId,
    clientSecret,
    endpoints: {
      issuer,
      authorizationEndpoint: `${issuer}/auth`,
      tokenEndpoint: `${issuer}/token`,
      jwksUri: `${issuer}/jwks`,
      userInfoEndpoint: `${issuer}/me`,
    },
    signInAs: (email, claims = {}) => void (nextLogin = { email, claims }),
    authorize,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A token endpoint in front of the provider's that changes the ID token's payload, keeping its signature, or leaves
 * the ID token out of the answer where `tamper` answers null.
 */
export async function startTamperingProxy(
  tokenEndpoint: string,
  tamper: (claims: Record<string, unknown>) => Record<string, unknown> | null,
) {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const upstream = await fetch(tokenEndpoint, {
      method: 'POST',
      headers: {
        'content-type': String(req.headers['content-type']),
        authorization: String(req.headers.authorization ?? ''),
      },
      body: Buffer.concat(chunks),
    });
    const body = (await upstream.json()) as Record<string, unknown>;
    if (typeof body.id_token === 'string') {
      const [header, payload, signature] = body.id_token.split('.');
      const claims = tamper(JSON.parse(Buffer.from(payload, 'base64url').toString()));
      if (claims === null) delete body.id_token;
      else body.id_token = [header, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature].join('.');
    }
    res.writeHead(upstream.status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
