// The alarm change record's migration rolls back on a database holding records and notices, and applies again.
import { sql } from 'kysely';
import * as alarmChanges from '../../src/db/migrations/2026-11-23T1900-personal-alarm-changes';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, insertUser } from '../support/fixtures';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

test('personal_alarm_changes rolls back (notices of changes removed with it) and comes back', async () => {
  const db = ctx.services.db;
  const tenant = await insertTenant(ctx.services);
  const owner = await insertUser(ctx.services, { tenants: [tenant] });
  const now = new Date();
  const alarm = await db
    .insertInto('personal_alarms')
    .values({
      tenant_id: tenant,
      user_id: owner.id,
      device_id: 'd',
      text: 't',
      dispatch_at: now,
      active: false,
      one_minute_warning: false,
      location_id: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const change = await db
    .insertInto('personal_alarm_changes')
    .values({
      tenant_id: tenant,
      alarm_id: alarm.id,
      actor_id: owner.id,
      action: 'update',
      changes: JSON.stringify({ text: { from: 's', to: 't' } }),
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('personal_alarm_messages')
    .values({
      tenant_id: tenant,
      alarm_id: alarm.id,
      kind: 'changed',
      version: 1,
      change_id: change.id,
      created_at: now,
    })
    .execute();
  await db
    .insertInto('personal_alarm_messages')
    .values({ tenant_id: tenant, alarm_id: alarm.id, kind: 'warning', version: 1, created_at: now })
    .execute();
  const tables = async () =>
    (
      await sql<{
        n: number;
      }>`select count(*)::int as n from information_schema.tables where table_name = 'personal_alarm_changes'`.execute(
        db,
      )
    ).rows[0].n;

  await alarmChanges.down(db);
  expect(await tables()).toBe(0);
  expect(
    (await sql<{ kind: string }>`select kind from personal_alarm_messages where alarm_id = ${alarm.id}`.execute(db))
      .rows,
  ).toEqual([{ kind: 'warning' }]);

  await alarmChanges.up(db);
  expect(await tables()).toBe(1);
  // The once-per-version rule still holds for the alarm's own messages, and a change's notice is once per change.
  await expect(
    db
      .insertInto('personal_alarm_messages')
      .values({ tenant_id: tenant, alarm_id: alarm.id, kind: 'warning', version: 1, created_at: now })
      .execute(),
  ).rejects.toThrow();
  await expect(
    db
      .insertInto('personal_alarm_messages')
      .values({ tenant_id: tenant, alarm_id: alarm.id, kind: 'changed', version: 1, created_at: now })
      .execute(),
  ).rejects.toThrow();
});
