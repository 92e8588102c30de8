// The last schema change can be rolled back and applied again on a database holding data (its down step
// rebuilds the previous pair rows; its up step fills the new ones from the groups).
import { sql } from 'kysely';
import * as pairRowsCovering from '../../src/db/migrations/2026-11-22T1540-group-name-bigrams-covering';
import { createTestContext, type TestContext } from '../support/context';
import { buildWorld } from '../support/world';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

test('the covering pair rows roll back to gram and group, and come back filled', async () => {
  const db = ctx.services.db;
  const world = await buildWorld(ctx.services, {
    tenants: { rollback: 'Rollback' },
    groups: { crisis: { tenant: 'rollback', name: 'Crisis team' } },
  });
  const org = world.tenants.rollback;
  const group = world.groups.crisis;
  const columns = async () =>
    (
      await sql<{
        column_name: string;
      }>`select column_name from information_schema.columns where table_name = 'group_name_bigrams' order by column_name`.execute(
        db,
      )
    ).rows.map((r) => r.column_name);
  const pairsOf = async () =>
    (
      await sql<{ gram: string }>`select gram from group_name_bigrams where group_id = ${group} order by gram`.execute(
        db,
      )
    ).rows.map((r) => r.gram);
  const before = await pairsOf();
  expect(before).toContain('is');

  await pairRowsCovering.down(db);
  expect(await columns()).toEqual(['gram', 'group_id']);
  expect(await pairsOf()).toEqual(before);

  await pairRowsCovering.up(db);
  expect(await columns()).toEqual(['gram', 'group_id', 'name_folded', 'tenant_id', 'type']);
  expect(await pairsOf()).toEqual(before);
  const row = (
    await sql<{
      tenant_id: string;
      name_folded: string;
      type: string;
    }>`select tenant_id, name_folded, type from group_name_bigrams where group_id = ${group} limit 1`.execute(db)
  ).rows[0];
  expect(row).toEqual({ tenant_id: expect.anything(), name_folded: 'crisis team', type: 'default' });
  expect(Number(row.tenant_id)).toBe(org.tenantId);
});
