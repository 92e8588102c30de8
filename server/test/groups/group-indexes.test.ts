// The group list reads one tenant's rows through indexes, not by scanning every tenant's groups.
import { CompiledQuery, sql } from 'kysely';
import { selectGroups } from '../../src/modules/groups/groups.repository';
import type { Viewer } from '../../src/modules/groups/group-visibility.repository';
import { createTestContext, type TestContext } from '../support/context';
import { insertCaller, insertOrganisation } from '../support/organisation-fixtures';

let ctx: TestContext;
let viewer: Viewer;

beforeAll(async () => {
  ctx = await createTestContext();
  const db = ctx.services.db;
  const orgs = [];
  for (let i = 0; i < 40; i++) orgs.push(await insertOrganisation(ctx.services, `Tenant ${i}`));
  const values = orgs.flatMap((org, i) =>
    Array.from({ length: 250 }, (_, n) => ({
      tenant_id: org.tenantId,
      account_id: org.accountId,
      name: `Group ${i}-${n}`,
    })),
  );
  await db.insertInto('groups').values(values).execute();
  const caller = await insertCaller(ctx.services, { tenants: [orgs[0].tenantId] });
  viewer = { tenantId: orgs[0].tenantId, userId: caller.id, scope: 'all', isAdmin: false };
  await sql`vacuum analyze groups`.execute(db);
  await sql`analyze`.execute(db);
});
afterAll(() => ctx.close());

/** EXPLAIN of the query `run` sends (captured on its way to the database, so it is exactly what the list runs). */
async function planOf(run: (db: TestContext['services']['db']) => Promise<unknown>): Promise<string> {
  const base = ctx.services.db;
  // transformQuery also sees the subqueries as they are built; the one whose result comes back was executed.
  const compiled = new Map<unknown, CompiledQuery>();
  let captured: CompiledQuery | null = null;
  const spy = base.withPlugin({
    transformQuery: (args) => {
      compiled.set(args.queryId, base.getExecutor().compileQuery(args.node, args.queryId));
      return args.node;
    },
    transformResult: async (args) => {
      captured ??= compiled.get(args.queryId) ?? null;
      return args.result;
    },
  });
  await run(spy);
  const { sql: text, parameters } = captured!;
  const result = await base.executeQuery<Record<string, string>>(CompiledQuery.raw(`explain ${text}`, [...parameters]));
  return result.rows.map((row) => Object.values(row)[0]).join('\n');
}

describe('GET /core/v1/groups storage', () => {
  test('a name filter is answered from the tenant index (index-only) or the trigram index, never a scan of groups', async () => {
    for (const name of ['0-1', 'p 0']) {
      const text = await planOf((db) => selectGroups(db, viewer, { nameContains: name }, { limit: 10, offset: 0 }));
      expect(text).toMatch(/Index Only Scan using groups_tenant_folded_idx|groups_name_folded_trgm_idx/);
      expect(text).toContain('group_tenants_partner_idx');
      expect(text).not.toMatch(/Seq Scan on groups/);
    }
  });

  test('a two-character name filter reads the groups holding that pair from the bigram index alone', async () => {
    const text = await planOf((db) => selectGroups(db, viewer, { nameContains: '-1' }, { limit: 10, offset: 0 }));
    expect(text).toContain('Index Only Scan using group_name_bigrams_pkey');
    expect(text).not.toMatch(/Seq Scan on groups|Seq Scan on group_name_bigrams/);
  });

  test('a page of the unfiltered list walks the tenant index in list order and stops after the page', async () => {
    const text = await planOf((db) => selectGroups(db, viewer, {}, { limit: 10, offset: 0 }));
    // The page: the two branches merged in order, the tenant's own groups read from the index in order (no sort).
    expect(text).toMatch(/Merge Append[\s\S]*Limit[\s\S]*Index Only Scan using groups_tenant_folded_idx/);
    const lines = text.split('\n');
    const sortedBy = lines.flatMap((line, i) => (line.includes('Sort Key: groups.name_folded') ? [lines[i - 1]] : []));
    expect(sortedBy.length).toBeGreaterThan(0);
    for (const node of sortedBy) expect(node).toContain('Merge Append');
    expect(text).not.toMatch(/Seq Scan on groups/);
  });
});
