// Prepared statements (db/prepared.ts): compiled once with placeholders, run with fresh values as parameters.
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../src/db/database';
import { compileOnce, placeholder, prepared } from '../../src/db/prepared';
import { openTestDatabase, storageBackends } from '../support/database';

describe.each(storageBackends)('prepared statements on %s', (backend) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(backend);
  });
  afterAll(() => handle.close());

  test('a statement runs again and again with fresh values, which stay values', async () => {
    const store = prepared<never, [key: string, binding: string, expiresAt: string]>(3, (db, key, binding, expiresAt) =>
      db.insertInto('verified_credentials').values({ key, binding, expires_at: expiresAt }),
    );
    const read = prepared<{ binding: string; expires_at: Date }, [key: string]>(1, (db, key) =>
      db.selectFrom('verified_credentials').select(['binding', 'expires_at']).where('key', '=', key),
    );
    const hostile = `x'); delete from verified_credentials; --`;
    await store(handle.db, 'prepared-a', hostile, '2030-01-01T00:00:00.000Z');
    await store(handle.db, 'prepared-b', 'second', '2031-06-01T12:00:00.000Z');
    expect(await read(handle.db, 'prepared-a')).toEqual([
      { binding: hostile, expires_at: new Date('2030-01-01T00:00:00.000Z') },
    ]);
    expect(await read(handle.db, 'prepared-b')).toEqual([
      { binding: 'second', expires_at: new Date('2031-06-01T12:00:00.000Z') },
    ]);
    expect(await read(handle.db, 'prepared-c')).toEqual([]);
  });

  test('a statement with a literal value or an unused placeholder is refused when it is compiled', () => {
    const literal = handle.db.selectFrom('users').select('id').where('email', '=', 'someone@example.test');
    expect(() => compileOnce(handle.db, literal, 0)).toThrow(/every value as a placeholder/);
    const unused = handle.db.selectFrom('users').select('id').where('email', '=', placeholder(1));
    expect(() => compileOnce(handle.db, unused, 2)).toThrow(/does not use \$2/);
    // $1 is not mistaken for $10.
    const tenth = sql`select ${placeholder(10)}::text as a`;
    expect(() => compileOnce(handle.db, tenth, 1)).toThrow(/does not use \$1/);
  });

  test('a statement built from parts with named values gets each value wherever it is used, whatever the order given', async () => {
    const part = (p: { a: unknown; b: unknown }) => sql`first as (select ${p.a}::text as a, ${p.b}::int as b)`;
    const statement = prepared<{ a: string; b: number; again: string }, { a: string; b: number }>(
      (_db, p) => sql`with ${part(p)} select a, b, ${p.a}::text as again from first`,
    );
    for (let i = 0; i < 2; i++) {
      expect(await statement(handle.db, { a: `a${i}`, b: 40 + i })).toEqual([
        { a: `a${i}`, b: 40 + i, again: `a${i}` },
      ]);
      expect(await statement(handle.db, { b: i, a: 'swapped' })).toEqual([{ a: 'swapped', b: i, again: 'swapped' }]);
    }
  });
});
