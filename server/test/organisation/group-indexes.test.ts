// The group list reads one tenant's rows through indexes, not by scanning every tenant's groups.
import { sql, type Compilable } from 'kysely';
import { visibleGroups, type Viewer } from '../../src/modules/groups/group-visibility';
import { createTestContext, type TestContext } from '../support/context';
import { insertCaller, insertOrganisation } from './organisation-fixtures';

let ctx: TestContext;
let viewer: Viewer;

beforeAll(async () => {
  ctx = await createTestContext();
  const db = ctx.services.db;
  const orgs = [];
  for (let i = 0; i < 40; i++) orgs.push(await insertOrganisation(ctx.services, `Tenant ${i}`));
  const values = orgs.flatMap((org, i) => Array.from({ length: 50 }, (_, n) => ({ tenant_id: org.tenantId, account_id: org.accountId, name: `Group ${i}-${n}` })));
  await db.insertInto('groups').values(values).execute();
  const caller = await insertCaller(ctx.services, { tenants: [orgs[0].tenantId] });
  viewer = { tenantId: orgs[0].tenantId, userId: caller.id, scope: 'all', isAdmin: false };
  await sql`analyze`.execute(db);
});
afterAll(() => ctx.close());

async function plan(query: Compilable): Promise<string> {
  const compiled = query.compile();
  const result = await ctx.services.db.executeQuery<Record<string, string>>({ ...compiled, sql: `explain ${compiled.sql}` });
  return result.rows.map((row) => Object.values(row)[0]).join('\n');
}

describe('GET /core/v1/groups storage', () => {
  test('EXPLAIN of a filtered page uses the tenant indexes of groups and group_tenants', async () => {
    const page = visibleGroups(ctx.services.db, viewer)
      .select(['g.id', 'g.name'])
      .where('g.name', 'ilike', '%group 0-1%')
      .orderBy(sql`lower(g.name)`)
      .orderBy('g.id')
      .limit(10);
    const text = await plan(page);
    expect(text).toContain('groups_tenant_name_idx');
    expect(text).toContain('group_tenants_partner_idx');
    expect(text).not.toMatch(/Seq Scan on groups/);
  });
});
