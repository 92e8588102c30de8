// PostgreSQL: single prepared statements share pipelined connections (db/pipeline.ts); a transaction, an advisory
// lock or any other statement has a connection of its own. Runs when TEST_DATABASE_URL is set.
import net from 'node:net';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../src/db/database';
import { prepared, type Placeholders } from '../../src/db/prepared';
import { withAdvisoryLock } from '../../src/db/advisory-lock';
import { openTestDatabase, postgresUrl } from '../support/database';

const maybe = postgresUrl ? describe : describe.skip;

maybe('pipelined statements on PostgreSQL', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase('postgres');
  });
  afterAll(() => handle.close());

  const tenantsNamed = prepared((db, p: Placeholders<{ name: string }>) =>
    db.selectFrom('tenants').select('id').where('name', '=', p.name),
  );
  const backend = prepared(
    (_db, p: Placeholders<{ tag: string }>) =>
      sql<{ pid: number; tag: string }>`select pg_backend_pid() as pid, ${p.tag}::text as tag`,
  );

  /** Socket writes made while `work` runs (every socket of this process). */
  async function writesDuring<T>(work: () => Promise<T>): Promise<{ writes: number; result: T }> {
    const proto = net.Socket.prototype as unknown as Record<'_write' | '_writev', (...a: unknown[]) => unknown>;
    const originals = { _write: proto._write, _writev: proto._writev };
    let writes = 0;
    for (const key of ['_write', '_writev'] as const)
      proto[key] = function (this: unknown, ...args: unknown[]) {
        writes++;
        return originals[key].apply(this, args);
      };
    try {
      const result = await work();
      return { writes, result };
    } finally {
      Object.assign(proto, originals);
    }
  }

  test('statements sent in the same tick leave in one write per shared connection, and each gets its own answer', async () => {
    await backend(handle.db, { tag: 'warm' }); // the shared connections are open and the statement parsed
    await Promise.all(Array.from({ length: 4 }, (_, i) => backend(handle.db, { tag: `warm-${i}` })));
    const { writes, result } = await writesDuring(() =>
      Promise.all(Array.from({ length: 12 }, (_, i) => backend(handle.db, { tag: `n${i}` }))),
    );
    expect(result.map(([row]) => row.tag)).toEqual(Array.from({ length: 12 }, (_, i) => `n${i}`));
    expect(new Set(result.map(([row]) => row.pid)).size).toBeLessThanOrEqual(2);
    expect(writes).toBeLessThanOrEqual(2);
  });

  test("a transaction's rows are never seen by statements on the shared connections before it commits, and a rollback leaves nothing", async () => {
    const name = `pipelined-${Date.now()}`;
    let seenInside: unknown[] = [];
    let seenOutside: unknown[] = ['not run'];
    await expect(
      handle.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('tenants')
          .values({ name, logo_url: 'https://tenant.test/logo.png', website_url: 'https://tenant.test' })
          .execute();
        seenInside = await tenantsNamed(trx, { name });
        // Statements from outside the transaction, on the shared connections, at the same moment.
        seenOutside = (await Promise.all([1, 2, 3].map(() => tenantsNamed(handle.db, { name })))).flat();
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(seenInside).toHaveLength(1);
    expect(seenOutside).toEqual([]);
    expect(await tenantsNamed(handle.db, { name })).toEqual([]);
  });

  test('a transaction runs on a connection of its own, never on a shared one', async () => {
    const shared = new Set(
      (await Promise.all(Array.from({ length: 6 }, (_, i) => backend(handle.db, { tag: `s${i}` })))).map(
        ([row]) => row.pid,
      ),
    );
    const inside = await handle.db.transaction().execute(async (trx) => (await backend(trx, { tag: 't' }))[0].pid);
    expect(shared.has(inside)).toBe(false);
  });

  test('an advisory lock is held by a connection of its own until the work is done', async () => {
    const holders = await withAdvisoryLock(handle, 'pipelines-test', async () => {
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from pg_locks where locktype = 'advisory' and granted`.execute(handle.db);
      return rows[0].n;
    });
    expect(holders).toBeGreaterThanOrEqual(1);
  });

  test('a shared connection that is lost fails only what was on it; the next statements get a new one', async () => {
    const [{ pid }] = await backend(handle.db, { tag: 'before' });
    await sql`select pg_terminate_backend(${pid})`.execute(handle.db);
    // The statement in flight when the connection drops may fail, as on a pooled connection; the rest recover.
    await backend(handle.db, { tag: 'lost' }).catch(() => undefined);
    const deadline = Date.now() + 5_000;
    let answer: { pid: number; tag: string }[] = [];
    while (Date.now() < deadline) {
      answer = await backend(handle.db, { tag: 'after' }).catch(() => []);
      if (answer.length) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(answer[0]?.tag).toBe('after');
    expect(answer[0]?.pid).not.toBe(pid);
  });
});
