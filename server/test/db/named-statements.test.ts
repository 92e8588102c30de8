// The one mechanism for hot statements (db/prepared.ts): named values, compiled once per shape, sent as named
// prepared statements on PostgreSQL and PGlite alike.
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../src/db/database';
import { prepared, roundTrips, type Placeholders } from '../../src/db/prepared';
import { openTestDatabase, storageBackends } from '../support/database';

describe.each(storageBackends)('named prepared statements on %s', (backend) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(backend);
  });
  afterAll(() => handle.close());

  const echo = prepared((_db, p: Placeholders<{ word: string; n: number }>, { twice }: { twice: boolean }) =>
    twice
      ? sql<{ word: string; n: number }>`select ${p.word}::text || ${p.word}::text as word, ${p.n}::int as n`
      : sql<{ word: string; n: number }>`select ${p.word}::text as word, ${p.n}::int as n`,
  );

  test('a statement runs under its name: the database holds it parsed, and each run brings its own values', async () => {
    const prepared = await handle.db.transaction().execute(async (trx) => {
      expect(await echo(trx, { word: `it's`, n: 1 }, { twice: false })).toEqual([{ word: `it's`, n: 1 }]);
      expect(await echo(trx, { word: 'ab', n: 2 }, { twice: true })).toEqual([{ word: 'abab', n: 2 }]);
      expect(await echo(trx, { word: 'c', n: 3 }, { twice: false })).toEqual([{ word: 'c', n: 3 }]);
      return (
        await sql<{
          name: string;
          statement: string;
        }>`select name, statement from pg_prepared_statements where not from_sql`.execute(trx)
      ).rows;
    });
    // One named statement per shape: the first text twice run is still one statement.
    const texts = prepared.filter((s) => s.statement.includes('::int as "n"') || s.statement.includes('::int as n'));
    expect(texts).toHaveLength(2);
    expect(texts.every((s) => /^core_\d+$/.test(s.name))).toBe(true);
  });

  test('a plain value in a prepared statement is refused: it would be frozen into the statement', async () => {
    const frozen = prepared((db, p: Placeholders<{ id: number }>) =>
      db.selectFrom('users').select('id').where('id', '=', p.id).where('email', '=', 'someone@example.test'),
    );
    await expect(frozen(handle.db, { id: 1 })).rejects.toThrow(/every value as a placeholder/);
    const literal = prepared((db, p: Placeholders<{ id: number }>) =>
      db.selectFrom('users').select('id').where('id', '=', p.id).where('email', '=', sql.lit('nobody')),
    );
    expect(await literal(handle.db, { id: 1 })).toEqual([]);
  });

  test('a statement planned per run (plan: custom) is sent unnamed and still compiled once', async () => {
    const custom = prepared(
      (_db, p: Placeholders<{ word: string }>) =>
        sql<{ word: string }>`select ${p.word}::text as word, 'custom-plan' as kind`,
      { plan: 'custom' },
    );
    const named = await handle.db.transaction().execute(async (trx) => {
      expect(await custom(trx, { word: 'x' })).toEqual([{ word: 'x', kind: 'custom-plan' }]);
      return (
        await sql<{
          statement: string;
        }>`select statement from pg_prepared_statements where statement like '%custom-plan%' and not from_sql`.execute(
          trx,
        )
      ).rows;
    });
    expect(named).toEqual([]);
  });

  test('every statement sent is counted as one round trip', async () => {
    const before = roundTrips.count;
    await echo(handle.db, { word: 'a', n: 1 }, { twice: false });
    await sql`select 1`.execute(handle.db);
    expect(roundTrips.count - before).toBe(2);
  });
});
