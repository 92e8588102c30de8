// The group search's data: many groups and memberships in one demo tenant, written straight to the database.
import { Client } from 'pg';

/** 10,000 groups and 100,000 group memberships in the first demo tenant, straight into the database. */
export async function seedManyGroups(databaseUrl: string): Promise<number> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } =
      await client.query(`select m.tenant_id, a.id as account_id from memberships m join users u on u.id = m.user_id
      join accounts a on a.tenant_id = m.tenant_id where u.email = 'anna@demo.test' order by a.id limit 1`);
    const { tenant_id: tenantId, account_id: accountId } = rows[0];
    await client.query(
      `insert into groups (tenant_id, account_id, name)
      select $1, $2, 'Group ' || g || ' ' || substr(md5(g::text), 1, 8) from generate_series(1, 10000) g`,
      [tenantId, accountId],
    );
    await client.query(
      `insert into group_members (group_id, user_id, tenant_id)
      select g.id, m.user_id, $1 from groups g
      join (select user_id, row_number() over (order by user_id) as rn from memberships where tenant_id = $1 and user_id in (select id from users where email like 'bench-%')) m
        on g.id % 40 = m.rn % 40
      where g.tenant_id = $1`,
      [tenantId],
    );
    // Each membership insert bumped its group's members_count (a trigger): vacuum as autovacuum soon would, so
    // the run measures the steady state rather than ten dead versions of every group row.
    await client.query('vacuum analyze');
    return Number(tenantId);
  } finally {
    await client.end();
  }
}
