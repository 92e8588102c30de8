// npm run admin -- permission grant | revoke | show, group create | list | add-member.
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, insertUser } from '../support/fixtures';
import { buildPermissions } from '../../src/modules/users';
import { adminRunner, expectRefused } from './admin-fixtures';

let ctx: TestContext;
let admin: ReturnType<typeof adminRunner>;
let tenant: number;
let other: number;
beforeAll(async () => {
  ctx = await createTestContext();
  admin = adminRunner(ctx);
  tenant = await insertTenant(ctx.services, 'Demo School');
  other = await insertTenant(ctx.services, 'Other School');
  await insertUser(ctx.services, {
    email: 'ann@school.example',
    tenants: [tenant],
    permissions: buildPermissions(false),
  });
  await insertUser(ctx.services, {
    email: 'olle@other.example',
    tenants: [other],
    permissions: buildPermissions(false),
  });
});
afterAll(() => ctx.close());

const t = (id = tenant) => ['--tenant', String(id)];
const flags = async (email: string, tenantId = tenant) =>
  (
    await ctx.services.db
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select('m.permissions')
      .where('u.email', '=', email)
      .where('m.tenant_id', '=', tenantId)
      .executeTakeFirstOrThrow()
  ).permissions;

describe('permission', () => {
  test('grant turns flags on, revoke off, show lists what is on; the rest stay as they were', async () => {
    const granted = await admin([
      'permission',
      'grant',
      ...t(),
      '--user',
      'ANN@school.example',
      'cec.maySend',
      'checklists.*',
    ]);
    expect(granted).toMatchObject({ code: 0, err: '' });
    expect(granted.out).toMatch(
      /^Granted for ANN@school\.example at Demo School: cec\.maySend, checklists\.mayUse, .*checklists\.mayReactivate\.\n$/,
    );
    expect((await flags('ann@school.example')).cec.maySend).toBe(true);
    expect((await flags('ann@school.example')).broadcast.maySend).toBe(false);
    const again = await admin(['permission', 'grant', ...t(), '--user', 'ann@school.example', 'cec.maySend']);
    expect(again.out).toBe('Nothing changed: ann@school.example at Demo School already has cec.maySend.\n');
    await admin(['permission', 'revoke', ...t(), '--user', 'ann@school.example', 'checklists.*']);
    expect((await admin(['permission', 'show', ...t(), '--user', 'ann@school.example'])).out).toBe(
      'ann@school.example at Demo School: cec.maySend\n',
    );
    expect((await admin(['permission', 'show'])).out).toContain('  cec.maySend\n');
  });

  test('an unknown flag is refused, naming it, and nothing changes', async () => {
    const before = await flags('ann@school.example');
    expectRefused(
      await admin([
        'permission',
        'grant',
        ...t(),
        '--user',
        'ann@school.example',
        'cec.maySend',
        'cec.mayEverything',
        'root.*',
      ]),
      'Unknown permission flag(s): cec.mayEverything, root.*.',
    );
    expect(await flags('ann@school.example')).toEqual(before);
  });

  test("someone who is not a member of the tenant cannot be granted anything there (another tenant's member)", async () => {
    expectRefused(
      await admin(['permission', 'grant', ...t(), '--user', 'olle@other.example', 'cec.maySend']),
      `olle@other.example is not a member of tenant ${tenant}.`,
    );
    expect((await flags('olle@other.example', other)).cec.maySend).toBe(false);
    expectRefused(
      await admin(['permission', 'grant', '--tenant', '999999', '--user', 'a@b.example', 'cec.maySend']),
      'There is no tenant 999999.',
    );
  });
});

describe('group', () => {
  test('create with functions, list, add a member, make them its administrator', async () => {
    const created = await admin([
      'group',
      'create',
      ...t(),
      '--name',
      'Crisis team',
      '--function',
      'checklists',
      '--function',
      'im_ok',
    ]);
    expect(created).toMatchObject({ code: 0, err: '' });
    const id = Number(/^Group (\d+) created: Crisis team \(default\)\n$/.exec(created.out)![1]);
    expect(
      (
        await ctx.services.db
          .selectFrom('group_functions')
          .select('function')
          .where('group_id', '=', id)
          .orderBy('function')
          .execute()
      ).map((r) => r.function),
    ).toEqual(['checklists', 'im_ok']);
    expect((await admin(['group', 'add-member', String(id), ...t(), '--user', 'ann@school.example'])).out).toBe(
      `ann@school.example is now a member of group ${id}.\n`,
    );
    expect(
      (await admin(['group', 'add-member', String(id), ...t(), '--user', 'ann@school.example', '--admin'])).out,
    ).toBe(`ann@school.example is now an administrator of group ${id}.\n`);
    expect((await admin(['group', 'list', ...t()])).out).toContain(`${id}\tCrisis team\tdefault\t1 member(s)\n`);
  });

  test("another tenant's member, another tenant's group, a directory's group: refused", async () => {
    const mine = Number(/Group (\d+)/.exec((await admin(['group', 'create', ...t(), '--name', 'Mine'])).out)![1]);
    const theirs = Number(
      /Group (\d+)/.exec((await admin(['group', 'create', ...t(other), '--name', 'Theirs'])).out)![1],
    );
    expectRefused(
      await admin(['group', 'add-member', String(mine), ...t(), '--user', 'olle@other.example']),
      `olle@other.example is not a member of tenant ${tenant}: \`user invite\` adds them first.`,
    );
    expectRefused(
      await admin(['group', 'add-member', String(theirs), ...t(), '--user', 'ann@school.example']),
      `Tenant ${tenant} has no group ${theirs}.`,
    );
    await ctx.services.db
      .insertInto('scim_groups')
      .values({ group_id: mine, tenant_id: tenant, external_id: 'x' })
      .execute();
    expectRefused(
      await admin(['group', 'add-member', String(mine), ...t(), '--user', 'ann@school.example']),
      `Group ${mine} (Mine) is managed by the tenant's directory (SCIM): change its members there.`,
    );
    expectRefused(
      await admin(['group', 'create', ...t(), '--name', 'X', '--type', 'crossOrg']),
      'Must be one of default, hidden, coAlert.',
    );
    expectRefused(
      await admin(['group', 'create', ...t(), '--name', 'X', '--function', 'coffee']),
      'Must be one of checklists',
    );
  });
});
