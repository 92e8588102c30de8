// Attack: server-side request forgery by a tenant administrator. The OIDC settings name the endpoints the region
// POSTs client credentials to and GETs keys from; pointed at loopback, private or link-local addresses (the cloud
// metadata service), the region would reach its own network for them, and different answers for a closed port
// and an open one would make it a port scanner.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/config';
import { saveOidcSettings } from '../../src/modules/integrations/integrations.service';
import { isPublicAddress, outboundClient, outboundPolicy, OutboundUnreachable } from '../../src/security/outbound';
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

/** A loopback HTTP server that counts requests and answers with `handler`. */
async function countingServer(
  handler: (url: string) => { status: number; headers?: Record<string, string>; body?: string } = () => ({
    status: 200,
    body: '{}',
  }),
) {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const answer = handler(req.url ?? '');
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(answer.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    hits,
    port,
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = await countingServer();
  await s.close();
  return s.port;
}

describe('which addresses count as public', () => {
  test.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.100.100.200',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.1',
    '192.0.2.1',
    '198.18.0.1',
    '::',
    '::1',
    'fe80::1',
    'fd00:ec2::254',
    'fc00::1',
    '::ffff:127.0.0.1',
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe',
    '64:ff9b::a9fe:a9fe',
    '2002:7f00:1::',
    '2001:db8::1',
    'ff02::1',
    'not-an-address',
  ])('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  test.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '2a00:1450:4001:81c::200e'])(
    '%s is public',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  test('production refuses an allow-list of internal addresses', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', OUTBOUND_ALLOWED_ADDRESSES: '127.0.0.0/8' })).toThrow(
      /OUTBOUND_ALLOWED_ADDRESSES is for development and tests only/,
    );
    expect(loadConfig({ NODE_ENV: 'test' }).outboundAllowList).toEqual(['127.0.0.0/8', '::1']);
    expect(loadConfig({ NODE_ENV: 'test', OUTBOUND_ALLOWED_ADDRESSES: 'none' }).outboundAllowList).toEqual([]);
  });
});

describe('the guarded client checks the address connected to, on every hop', () => {
  test('a name that resolves to loopback is refused after DNS resolution (localhost)', async () => {
    const target = await countingServer();
    const client = outboundClient(outboundPolicy([]));
    try {
      const error = await client.fetch(`http://localhost:${target.port}/`).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OutboundUnreachable);
      expect((error as OutboundUnreachable).reason).toBe('EOUTBOUNDREFUSED');
      expect(target.hits).toEqual([]);
    } finally {
      await client.close();
      await target.close();
    }
  });

  test('a redirect from an allowed address to an internal one is refused at the redirect', async () => {
    const inner = await countingServer();
    const outer = await countingServer(() => ({
      status: 302,
      headers: { location: `http://127.0.0.2:${inner.port}/latest/meta-data/` },
    }));
    const client = outboundClient(outboundPolicy(['127.0.0.1/32']));
    try {
      const error = await client.fetch(`${outer.url}/start`).catch((e: unknown) => e);
      expect(outer.hits).toEqual(['/start']);
      expect(error).toBeInstanceOf(OutboundUnreachable);
      expect((error as OutboundUnreachable).reason).toBe('EOUTBOUNDREFUSED');
      expect(inner.hits).toEqual([]);
      // The allowed address itself is reached (the refusal above is the guard's, not the network's).
      expect((await client.fetch(`${inner.url}/ok`)).status).toBe(200);
    } finally {
      await client.close();
      await outer.close();
      await inner.close();
    }
  });
});

describe('OIDC endpoints of a tenant cannot reach internal addresses', () => {
  let ctx: TestContext;
  let internal: Awaited<ReturnType<typeof countingServer>>;
  beforeAll(async () => {
    internal = await countingServer();
    ctx = await createSsoTestContext({ env: { OUTBOUND_ALLOWED_ADDRESSES: 'none' } });
  });
  afterAll(async () => {
    await ctx.close();
    await internal.close();
  });

  const endpoints = (tokenEndpoint: string) => ({
    clientId: 'client',
    clientSecret: 'client-secret-of-the-tenant',
    authorizationEndpoint: 'https://idp.example.com/authorize',
    tokenEndpoint,
    jwksUri: 'https://idp.example.com/keys',
    issuer: 'https://idp.example.com',
  });

  test.each([
    ['loopback', 'http://127.0.0.1:6379/token'],
    ['the cloud metadata service', 'http://169.254.169.254/latest/meta-data/iam/security-credentials/'],
    ['a private network', 'https://10.0.0.5/token'],
    ['unique-local IPv6', 'http://[fd00:ec2::254]/token'],
    ['an IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/token'],
    ['localhost', 'http://localhost:5432/token'],
  ])('PUT /integrations/oidc refuses %s with a 400 naming the field', async (_, url) => {
    const tenant = await ssoTenant(ctx.services, 'oidc');
    const res = await putOidcSettings(ctx, tenant, endpoints(url));
    expect(res.status).toBe(400);
    expect(res.body.error.issues).toEqual([
      {
        where: 'body',
        path: '/tokenEndpoint',
        message: 'must not point to a loopback, private, link-local or other internal address',
      },
    ]);
  });

  /** Settings stored directly (a name that resolved elsewhere when saved, or saved before this check), then a sign-in. */
  async function exchangeAgainst(tokenEndpoint: string) {
    const tenant = await ssoTenant(ctx.services, 'oidc');
    await saveOidcSettings(ctx.services, tenant.tenantId, endpoints(tokenEndpoint));
    const session = await ssoSession(ctx, tenant.user.email);
    const { verifier, challenge: codeChallenge } = pkce();
    const started = await challenge(ctx, session, {
      oidc: { codeChallenge, codeChallengeMethod: 'S256', redirectUri: ssoPage, state: 'state-1' },
    });
    expect(started.status).toBe(201);
    const res = await verify(ctx, session, {
      oidc: { authorizationCode: 'code-1', codeVerifier: verifier, state: 'state-1' },
    });
    return { status: res.status, code: res.body.error?.code, message: res.body.error?.message };
  }

  test('the code exchange never reaches an internal server, and a closed port, an open one and the metadata address answer alike', async () => {
    const open = await exchangeAgainst(`${internal.url}/token`);
    const closed = await exchangeAgainst(`http://127.0.0.1:${await closedPort()}/token`);
    const metadata = await exchangeAgainst('http://169.254.169.254/latest/meta-data/');
    expect(internal.hits).toEqual([]);
    expect(open).toEqual({
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      message: 'The identity provider could not be reached',
    });
    expect(closed).toEqual(open);
    expect(metadata).toEqual(open);
  });
});
