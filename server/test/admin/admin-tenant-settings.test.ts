// npm run admin -- sender-settings, scim-key and sso: what a tenant needs before external messages, directory
// provisioning and single sign-on work.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { loadOidcClient } from '../../src/modules/integrations/integrations.service';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, v1 } from '../support/fixtures';
import { createTestIdp } from '../support/saml-idp';
import { adminRunner, expectRefused } from './admin-fixtures';

let ctx: TestContext;
let admin: ReturnType<typeof adminRunner>;
let tenant: number;
const files = mkdtempSync(join(tmpdir(), 'admin-test-'));
beforeAll(async () => {
  ctx = await createTestContext();
  admin = adminRunner(ctx);
  tenant = await insertTenant(ctx.services, 'Demo School');
});
afterAll(() => ctx.close());

describe('sender-settings set / show', () => {
  test('a tenant without settings says what that means; set needs both at first, then either', async () => {
    expect((await admin(['sender-settings', 'show', '--tenant', String(tenant)])).out).toContain(
      'has no sender settings: its external messages are refused',
    );
    expectRefused(
      await admin(['sender-settings', 'set', '--tenant', String(tenant), '--email-name', 'Demo School']),
      'give both --email-name and --sms-sender',
    );
    expect(
      (
        await admin([
          'sender-settings',
          'set',
          '--tenant',
          String(tenant),
          '--email-name',
          'Demo School',
          '--sms-sender',
          'DemoSchool',
        ])
      ).out,
    ).toBe('Demo School: emails from "Demo School", SMS from "DemoSchool".\n');
    expect(
      (await admin(['sender-settings', 'set', '--tenant', String(tenant), '--sms-sender', '+46700000000'])).code,
    ).toBe(0);
    expect((await admin(['sender-settings', 'show', '--tenant', String(tenant)])).out).toBe(
      'Demo School: emails from "Demo School", SMS from "+46700000000".\n',
    );
  });

  test.each([
    [['--sms-sender', 'Demo-School!'], 'Must be up to 11 letters'],
    [['--sms-sender', 'TwelveLetter'], 'Must be up to 11 letters'],
    [['--sms-sender', '12'], 'Must be up to 11 letters'],
    [['--email-name', 'Evil\r\nBcc: x@y.test'], 'Must not contain control characters'],
  ])('refuses %j', async (args, message) => {
    expectRefused(await admin(['sender-settings', 'set', '--tenant', String(tenant), ...args]), message);
  });
});

describe('scim-key create', () => {
  test("prints a key once that the tenant's directory can provision with", async () => {
    const run = await admin(['scim-key', 'create', '--tenant', String(tenant), '--name', 'Entra ID provisioning']);
    expect(run.code).toBe(0);
    const key = /\n(csk_[\w-]{43})\n/.exec(run.out)![1];
    const users = await request(ctx.app).get('/core/v1/scim/v2/Users').set('authorization', `Bearer ${key}`);
    expect(users.status).toBe(200);
    const stored = await ctx.services.db
      .selectFrom('api_keys')
      .select(['name', 'key_hash', 'created_by'])
      .where('tenant_id', '=', tenant)
      .execute();
    expect(stored).toEqual([
      { name: 'Entra ID provisioning', key_hash: expect.not.stringContaining(key.slice(4)), created_by: null },
    ]);
  });

  test('refuses an unknown tenant and a 26th key', async () => {
    expectRefused(
      await admin(['scim-key', 'create', '--tenant', '999999', '--name', 'x']),
      'There is no tenant 999999.',
    );
    const full = await insertTenant(ctx.services);
    for (let i = 0; i < 25; i++)
      expect((await admin(['scim-key', 'create', '--tenant', String(full), '--name', `key ${i}`])).code).toBe(0);
    expectRefused(
      await admin(['scim-key', 'create', '--tenant', String(full), '--name', 'one too many']),
      'The tenant already has 25 api keys',
    );
  });
});

describe('sso domain / oidc / saml / show', () => {
  /** `sso oidc` for the test tenant, every setting but the client secret. */
  const oidcArgs = () => [
    'sso',
    'oidc',
    '--tenant',
    String(tenant),
    '--issuer',
    'https://idp.example',
    '--authorization-endpoint',
    'https://idp.example/auth',
    '--token-endpoint',
    'https://idp.example/token',
    '--jwks-uri',
    'https://idp.example/jwks',
    '--client-id',
    'school',
  ];

  test('registers a domain, an OIDC client with its secret from standard input, and a SAML provider; show tells all but the secret', async () => {
    expect(
      (await admin(['sso', 'domain', '--domain', 'School.Example', '--tenant', String(tenant), '--kind', 'oidc'])).out,
    ).toBe(`school.example signs in with oidc at Demo School (tenant ${tenant}).\n`);
    const probe = await request(ctx.app).get('/core/v1/probes/idpDomain/school.example').set(v1);
    expect(probe.status).toBe(200);

    const oidc = await admin([...oidcArgs(), '--client-secret-file', '-'], 'the-client-secret\n');
    expect(oidc).toMatchObject({ code: 0, err: '' });
    expect((await loadOidcClient(ctx.services, tenant))?.clientSecret).toBe('the-client-secret');

    const idp = await createTestIdp('admin-test-idp');
    const cert = join(files, 'idp.pem');
    writeFileSync(cert, idp.certificate);
    expect(
      (
        await admin([
          'sso',
          'saml',
          '--tenant',
          String(tenant),
          '--entry-point',
          idp.entryPoint,
          '--issuer',
          idp.issuer,
          '--certificate',
          cert,
        ])
      ).out,
    ).toContain('trusts 1 certificate(s)');

    const shown = await admin(['sso', 'show', '--tenant', String(tenant)]);
    expect(shown.out).toBe(
      `Demo School (tenant ${tenant})\n  domains: school.example (oidc)\n  OIDC: https://idp.example, client school\n  SAML: ${idp.entryPoint}, 1 certificate(s)\n`,
    );
    expect(shown.out).not.toContain('the-client-secret');
  });

  test('refuses what would be unsafe or unreadable', async () => {
    const notPem = join(files, 'not.pem');
    writeFileSync(notPem, 'hello');
    expectRefused(
      await admin(['sso', 'domain', '--domain', 'gmail.com', '--tenant', String(tenant), '--kind', 'oidc']),
      'gmail.com is a public mail domain',
    );
    expectRefused(
      await admin(['sso', 'domain', '--domain', 'not a domain', '--tenant', String(tenant), '--kind', 'oidc']),
      'Must be a domain name',
    );
    expectRefused(
      await admin(['sso', 'domain', '--domain', 'x.example', '--tenant', String(tenant), '--kind', 'ldap']),
      'Allowed choices are oidc, saml, skolon.',
    );
    expectRefused(
      await admin([
        'sso',
        'saml',
        '--tenant',
        String(tenant),
        '--entry-point',
        'https://idp.example/sso',
        '--certificate',
        notPem,
      ]),
      `${notPem} does not hold a PEM certificate.`,
    );
    expectRefused(
      await admin([
        'sso',
        'saml',
        '--tenant',
        String(tenant),
        '--entry-point',
        'https://idp.example/sso',
        '--certificate',
        join(files, 'missing.pem'),
      ]),
      'Cannot read the certificate file',
    );
    const oidc = oidcArgs();
    expectRefused(await admin([...oidc, '--client-secret-file', '-'], '   \n'), 'The client secret is empty.');
    expectRefused(
      await admin([...oidc, '--client-secret-file', join(files, 'missing.txt')]),
      'Cannot read the client secret file',
    );
  });
});
