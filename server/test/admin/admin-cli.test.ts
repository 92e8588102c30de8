// The operator tool's entry point: help, usage errors, and tenants.
import { createTestContext, type TestContext } from '../support/context';
import { adminRunner, expectRefused } from './admin-fixtures';

let ctx: TestContext;
let admin: ReturnType<typeof adminRunner>;
beforeAll(async () => {
  ctx = await createTestContext();
  admin = adminRunner(ctx);
});
afterAll(() => ctx.close());

describe('npm run admin -- --help', () => {
  test('lists every command with examples and exits 0', async () => {
    const run = await admin(['--help']);
    expect(run.code).toBe(0);
    for (const command of [
      'tenant',
      'user',
      'coalert-code',
      'sender-settings',
      'sso',
      'scim-key',
      'permission',
      'group',
      'cec-group',
      'recipient',
      'template',
    ])
      expect(run.out).toContain(`  ${command} `);
    expect(run.out).toContain('Examples:');
  });

  test('each command has its own help', async () => {
    const run = await admin(['coalert-code', 'issue', '--help']);
    expect(run.code).toBe(0);
    expect(run.out).toContain('--usage-limit <n>');
  });

  test('an unknown command or option, or a missing one, exits 1 with a line that says so', async () => {
    expectRefused(await admin(['frobnicate']), "unknown command 'frobnicate'");
    expectRefused(await admin(['tenant', 'create', '--name', 'X']), "required option '--website <url>' not specified");
    expectRefused(
      await admin(['tenant', 'create', '--name', 'X', '--website', 'https://x.example', '--colour', 'red']),
      "unknown option '--colour'",
    );
  });
});

describe('tenant create / list', () => {
  test('creates a tenant with its first account and prints its id; the list shows it', async () => {
    const run = await admin(['tenant', 'create', '--name', '  Demo School  ', '--website', 'https://school.example']);
    expect(run).toMatchObject({ code: 0, err: '' });
    const id = Number(/Tenant (\d+) created: Demo School\n/.exec(run.out)![1]);
    const tenant = await ctx.services.db
      .selectFrom('tenants')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(tenant).toMatchObject({
      name: 'Demo School',
      website_url: 'https://school.example',
      logo_url: 'https://school.example/logo.png',
    });
    expect(await ctx.services.db.selectFrom('accounts').select('name').where('tenant_id', '=', id).execute()).toEqual([
      { name: 'Demo School' },
    ]);
    expect((await admin(['tenant', 'list'])).out).toContain(
      `${id}\tDemo School\thttps://school.example\t0 member(s)\n`,
    );
  });

  test.each([
    [['--name', '', '--website', 'https://x.example'], "argument '' is invalid. Must be 1 to 200 characters."],
    [['--name', 'X', '--website', 'ftp://x.example'], 'Must be an http(s) URL'],
    [['--name', 'X', '--website', 'https://user:pw@x.example'], 'without credentials'],
    [['--name', 'Line\nbreak', '--website', 'https://x.example'], 'Must not contain control characters'],
  ])('refuses %j and creates nothing', async (args, message) => {
    const before = await ctx.services.db.selectFrom('tenants').select('id').execute();
    expectRefused(await admin(['tenant', 'create', ...args]), message);
    expect(await ctx.services.db.selectFrom('tenants').select('id').execute()).toHaveLength(before.length);
  });
});
