import { seedDemoData } from '../../src/demo/seed';
import type { RegionId } from '../../src/config';
import { createTestContext, type TestContext } from '../support/context';
import { signIn } from '../support/fixtures';
import { client, type Caller } from '../support/organisation-fixtures';

describe.each<RegionId>(['eu-north-1', 'sa-east-1'])('demo data in %s', (region) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ env: { REGION: region } });
    expect(await seedDemoData(ctx.services)).toBe(true);
  });
  afterAll(() => ctx.close());

  const as = async (email: string): Promise<Caller> => {
    const { id } = await ctx.services.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    return { id, email, token: (await signIn(ctx.services, id)).accessToken };
  };
  const tenantIds = async () =>
    (await ctx.services.db.selectFrom('tenants').select('id').orderBy('id').execute()).map((t) => t.id);

  test('has groups of every type, rooms and contacts in both tenants, and one crossOrg group shared by them', async () => {
    const types = await ctx.services.db.selectFrom('groups').select('type').distinct().execute();
    expect(types.map((t) => t.type)).toEqual(expect.arrayContaining(['default', 'hidden', 'crossOrg']));
    for (const tenantId of await tenantIds()) {
      expect(
        await ctx.services.db.selectFrom('meeting_rooms').select('id').where('tenant_id', '=', tenantId).execute(),
      ).not.toHaveLength(0);
      expect(
        await ctx.services.db.selectFrom('contacts').select('id').where('tenant_id', '=', tenantId).execute(),
      ).toHaveLength(2);
    }
    const shared = await ctx.services.db
      .selectFrom('group_tenants')
      .select('group_id')
      .groupBy('group_id')
      .having((eb) => eb.fn.countAll(), '>', 1)
      .execute();
    expect(shared).toHaveLength(1);
  });

  test('the demo administrator sees the hidden group and manages contacts; the crossOrg group shows in the partner tenant', async () => {
    const adminEmail = region === 'sa-east-1' ? 'joao@demo.test' : 'anna@demo.test';
    const [first, second] = await tenantIds();
    const admin = await as(adminEmail);
    const groups = await client(ctx, admin, first).get('/groups?limit=100');
    expect(groups.status).toBe(200);
    expect(groups.body.data.map((g: { type: string }) => g.type)).toEqual(
      expect.arrayContaining(['hidden', 'crossOrg']),
    );
    const contacts = await client(ctx, admin, first).get('/contacts');
    const { id } = contacts.body.data[0];
    expect((await client(ctx, admin, first).patch(`/contacts/${id}`, { title: 'Updated' })).status).toBe(200);

    const maria = await as('maria@demo.test');
    const partnerGroups = await client(ctx, maria, second).get('/groups');
    expect(partnerGroups.body.data.map((g: { type: string }) => g.type)).toContain('crossOrg');
  });
});
