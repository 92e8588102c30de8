import { sql } from 'kysely';
import type { DatabaseHandle } from '../../src/db/database';
import { migrateToLatest } from '../../src/db/migrate';
import { emailHash } from '../../src/security/hashing';
import { openTestDatabase, storageBackends } from '../support/database';

describe.each(storageBackends)('storage on %s', (backend) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(backend);
  });
  afterAll(() => handle.close());

  test('migrations create every table and running them again changes nothing', async () => {
    await migrateToLatest(handle.db, handle.schema);
    const tables = await handle.db.introspection.getTables();
    expect(tables.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        'tenants',
        'accounts',
        'users',
        'memberships',
        'user_settings',
        'sessions',
        'refresh_tokens',
        'challenges',
        'outbox',
      ]),
    );
  });

  test('ids come back as numbers and timestamps as dates', async () => {
    const tenant = await handle.db
      .insertInto('tenants')
      .values({ name: 'Acme', logo_url: 'https://a.test/l.png', website_url: 'https://a.test' })
      .returning(['id', 'created_at'])
      .executeTakeFirstOrThrow();
    expect(typeof tenant.id).toBe('number');
    expect(tenant.created_at).toBeInstanceOf(Date);
  });

  test('emails are unique regardless of case', async () => {
    const values = (email: string) => ({ name: 'X', title: null, email, email_hash: emailHash(email) + email });
    await handle.db.insertInto('users').values(values('Case@Example.test')).execute();
    await expect(handle.db.insertInto('users').values(values('case@example.test')).execute()).rejects.toThrow(
      /unique|duplicate/i,
    );
  });

  test('a failed transaction leaves nothing behind', async () => {
    await expect(
      handle.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('tenants')
          .values({ name: 'Half', logo_url: 'https://h.test/l.png', website_url: 'https://h.test' })
          .execute();
        throw new Error('crash in the middle');
      }),
    ).rejects.toThrow('crash in the middle');
    const row = await handle.db.selectFrom('tenants').select('id').where('name', '=', 'Half').executeTakeFirst();
    expect(row).toBeUndefined();
  });

  test('jsonb columns round-trip objects', async () => {
    const tenant = await handle.db
      .insertInto('tenants')
      .values({ name: 'J', logo_url: 'https://j.test/l.png', website_url: 'https://j.test' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const user = await handle.db
      .insertInto('users')
      .values({ name: 'J', title: null, email: 'j@j.test', email_hash: emailHash('j@j.test') })
      .returning('id')
      .executeTakeFirstOrThrow();
    await handle.db
      .insertInto('memberships')
      .values({
        tenant_id: tenant.id,
        user_id: user.id,
        permissions: JSON.stringify({ cec: { maySend: true, displayOrder: 3 } }),
      })
      .execute();
    const row = await handle.db
      .selectFrom('memberships')
      .select('permissions')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.permissions).toEqual({ cec: { maySend: true, displayOrder: 3 } });
  });

  test('concurrent transactions on one database do not interleave', async () => {
    const { id } = await handle.db
      .insertInto('tenants')
      .values({ name: 'Counter', logo_url: 'https://c.test/l.png', website_url: 'https://c.test' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await Promise.all(
      Array.from({ length: 10 }, () =>
        handle.db.transaction().execute(async (trx) => {
          const row = await trx
            .selectFrom('tenants')
            .select('name')
            .where('id', '=', id)
            .forUpdate()
            .executeTakeFirstOrThrow();
          await trx
            .updateTable('tenants')
            .set({ name: `${row.name}+` })
            .where('id', '=', id)
            .execute();
        }),
      ),
    );
    const row = await handle.db.selectFrom('tenants').select('name').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.name).toBe(`Counter${'+'.repeat(10)}`);
  });

  test('ping answers while the database is up', async () => {
    await expect(handle.ping()).resolves.toBeUndefined();
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(handle.db);
    expect(rows[0].one).toBe(1);
  });
});
