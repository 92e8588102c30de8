// Hourly housekeeping on the durable scheduler, under a clock the test moves: what is expired goes (familiar
// sign-in sources included), what may still be needed stays, the rows removed are counted in the metrics, and one
// job runs per hour however many instances enqueue it.
import { randomUUID } from 'node:crypto';
import { housekeepingJob, runHousekeeping, scheduleHousekeeping } from '../../src/jobs/housekeeping';
import { registry } from '../../src/metrics/metrics';
import { createTestContext, type TestContext } from '../support/context';
import { insertUser } from '../support/fixtures';
import { fakeClock } from '../support/crisis-fixtures';

const clock = fakeClock('2026-11-23T10:30:00.000Z');
const minutes = (n: number) => new Date(clock.now().getTime() + n * 60_000);
const days = (n: number) => minutes(n * 24 * 60);

async function removedMetric(table: string): Promise<number> {
  const metric = await registry.getSingleMetric('core_housekeeping_rows_removed_total')!.get();
  return metric.values.find((v) => v.labels.table === table)?.value ?? 0;
}

describe('housekeeping', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ now: clock.now, env: { JOB_RETENTION_DAYS: '7' } });
  });
  afterAll(() => ctx.close());

  test('removes expired proofs, throttles, old finished jobs, superseded refresh tokens, expired sessions and challenges; keeps the rest', async () => {
    const { db } = ctx.services;
    const user = await insertUser(ctx.services);
    await db
      .insertInto('verified_credentials')
      .values([
        { key: 'proof-expired', binding: 'b', expires_at: minutes(-1) },
        { key: 'proof-live', binding: 'b', expires_at: minutes(1) },
      ])
      .execute();
    await db
      .insertInto('throttles')
      .values([
        { key: 'throttle-over', count: 3, window_ends_at: minutes(-5), blocked_until: null },
        { key: 'throttle-still-blocked', count: 9, window_ends_at: minutes(-5), blocked_until: minutes(10) },
        { key: 'throttle-open-window', count: 1, window_ends_at: minutes(5), blocked_until: null },
      ])
      .execute();
    await db
      .insertInto('jobs')
      .values([
        {
          kind: 'k',
          payload: '{}',
          dedupe_key: 'job-old-done',
          run_at: days(-9),
          status: 'done',
          finished_at: days(-8),
        },
        {
          kind: 'k',
          payload: '{}',
          dedupe_key: 'job-old-failed',
          run_at: days(-9),
          status: 'failed',
          finished_at: days(-8),
        },
        {
          kind: 'k',
          payload: '{}',
          dedupe_key: 'job-recent-done',
          run_at: days(-2),
          status: 'done',
          finished_at: days(-1),
        },
        { kind: 'k', payload: '{}', dedupe_key: 'job-old-pending', run_at: days(-9) },
      ])
      .execute();
    const session = (id: string, expires: Date, revoked: Date | null = null) => ({
      id,
      user_id: user.id,
      factors: JSON.stringify({ password: 'verified' }),
      last_refreshed_at: days(-3),
      expires_at: expires,
      revoked_at: revoked,
    });
    const [expiredLongAgo, expiredRecently, live, revokedLongAgo] = [
      randomUUID(),
      randomUUID(),
      randomUUID(),
      randomUUID(),
    ];
    await db
      .insertInto('sessions')
      .values([
        session(expiredLongAgo, days(-2)),
        session(expiredRecently, minutes(-30)),
        session(live, days(10)),
        session(revokedLongAgo, days(10), days(-2)),
      ])
      .execute();
    await db
      .insertInto('refresh_tokens')
      .values([
        { token_hash: 'rt-superseded-long-ago', session_id: live, superseded_at: days(-2) },
        { token_hash: 'rt-superseded-recently', session_id: live, superseded_at: minutes(-30) },
        { token_hash: 'rt-current', session_id: live, superseded_at: null },
        { token_hash: 'rt-of-expired-session', session_id: expiredLongAgo, superseded_at: null },
      ])
      .execute();
    const challenge = (id: string, validUntil: Date) => ({
      id,
      session_id: live,
      kind: 'otp_email',
      valid_until: validUntil,
      resend_unavailable_until: validUntil,
    });
    const [oldChallenge, freshChallenge] = [randomUUID(), randomUUID()];
    await db
      .insertInto('challenges')
      .values([challenge(oldChallenge, days(-2)), challenge(freshChallenge, minutes(5))])
      .execute();

    const counted = await removedMetric('jobs');
    const counts = await runHousekeeping(ctx.services);
    expect(counts).toMatchObject({
      verified_credentials: 1,
      throttles: 1,
      jobs: 2,
      refresh_tokens: 1,
      sessions: 2,
      challenges: 1,
    });
    expect(await removedMetric('jobs')).toBe(counted + 2);

    const keys = async (table: 'verified_credentials' | 'throttles') =>
      (await db.selectFrom(table).select('key').execute()).map((r) => r.key).sort();
    expect(await keys('verified_credentials')).toEqual(['proof-live']);
    expect(await keys('throttles')).toEqual(['throttle-open-window', 'throttle-still-blocked']);
    expect(
      (await db.selectFrom('jobs').select('dedupe_key').where('kind', '=', 'k').execute())
        .map((r) => r.dedupe_key)
        .sort(),
    ).toEqual(['job-old-pending', 'job-recent-done']);
    expect((await db.selectFrom('sessions').select('id').execute()).map((r) => r.id).sort()).toEqual(
      [expiredRecently, live].sort(),
    );
    expect(
      (await db.selectFrom('refresh_tokens').select('token_hash').execute()).map((r) => r.token_hash).sort(),
    ).toEqual(['rt-current', 'rt-superseded-recently']);
    expect((await db.selectFrom('challenges').select('id').execute()).map((r) => r.id)).toEqual([freshChallenge]);

    // A day later, what was recent has aged out too.
    clock.advance(2 * 24 * 3_600_000);
    const later = await runHousekeeping(ctx.services);
    expect(later).toMatchObject({ verified_credentials: 1, throttles: 2, sessions: 1, refresh_tokens: 1 });
  });

  test('familiar sign-in sources go once unseen for their 90 days (when the throttle stops counting them familiar); the rest stay', async () => {
    const { db } = ctx.services;
    clock.set('2026-11-23T10:30:00.000Z');
    await db.deleteFrom('sign_in_sources').execute();
    await db
      .insertInto('sign_in_sources')
      .values([
        { email_hash: 'e1', source_hash: 'seen-yesterday', last_seen_at: days(-1) },
        { email_hash: 'e1', source_hash: 'just-inside', last_seen_at: minutes(-90 * 24 * 60 + 1) },
        { email_hash: 'e1', source_hash: 'exactly-90-days', last_seen_at: days(-90) },
        { email_hash: 'e2', source_hash: 'just-outside', last_seen_at: minutes(-90 * 24 * 60 - 1) },
        { email_hash: 'e2', source_hash: 'long-ago', last_seen_at: days(-400) },
      ])
      .execute();
    const counted = await removedMetric('sign_in_sources');

    expect((await runHousekeeping(ctx.services)).sign_in_sources).toBe(3);
    expect(await removedMetric('sign_in_sources')).toBe(counted + 3);
    const left = async () =>
      (await db.selectFrom('sign_in_sources').select('source_hash').execute()).map((r) => r.source_hash).sort();
    expect(await left()).toEqual(['just-inside', 'seen-yesterday']);

    // Two minutes later the row that was just inside has run out too.
    clock.advance(2 * 60_000);
    expect((await runHousekeeping(ctx.services)).sign_in_sources).toBe(1);
    expect(await left()).toEqual(['seen-yesterday']);
  });

  test('alarm repeat windows ended a day ago with no repeat waiting, and hourly volume counts older than 8 days, go; a window with repeats waiting for their summary stays', async () => {
    const { db } = ctx.services;
    clock.set('2026-11-23T10:30:00.000Z');
    const tenant = Number(
      (
        await db
          .insertInto('tenants')
          .values({ name: 'Volume', logo_url: 'https://v.test/l.png', website_url: 'https://v.test' })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
    const owner = (await insertUser(ctx.services, { tenants: [tenant] })).id;
    await db
      .insertInto('personal_alarm_repeat_windows')
      .values([
        { tenant_id: tenant, owner_id: owner, recipients: 'ended-long-ago', ends_at: days(-2), repeats: 0 },
        { tenant_id: tenant, owner_id: owner, recipients: 'just-ended', ends_at: minutes(-60), repeats: 0 },
        { tenant_id: tenant, owner_id: owner, recipients: 'summary-waiting', ends_at: days(-2), repeats: 3 },
      ])
      .execute();
    await db
      .insertInto('tenant_volume')
      .values([
        { tenant_id: tenant, kind: 'alarms', hour: days(-9), count: 5 },
        { tenant_id: tenant, kind: 'alarms', hour: days(-7), count: 5 },
      ])
      .execute();
    const removed = await runHousekeeping(ctx.services);
    expect(removed).toMatchObject({ personal_alarm_repeat_windows: 1, tenant_volume: 1 });
    const windows = await db.selectFrom('personal_alarm_repeat_windows').select('recipients').execute();
    expect(windows.map((w) => w.recipients).sort()).toEqual(['just-ended', 'summary-waiting']);
    expect(await db.selectFrom('tenant_volume').select('count').execute()).toHaveLength(1);
  });

  test('one housekeeping job per hour however many instances schedule it, and each run schedules the next hour', async () => {
    const { db, jobs } = ctx.services;
    await db.deleteFrom('jobs').execute();
    clock.set('2026-11-23T10:30:00.000Z');
    await scheduleHousekeeping(ctx.services);
    await scheduleHousekeeping(ctx.services);
    await scheduleHousekeeping(ctx.services);
    const rows = () =>
      db
        .selectFrom('jobs')
        .select(['dedupe_key', 'status', 'run_at'])
        .where('kind', '=', housekeepingJob)
        .orderBy('run_at')
        .execute();
    expect(await rows()).toHaveLength(1);
    expect(await jobs.runDueJobs()).toBe(1);
    const after = await rows();
    expect(after.map((r) => [r.dedupe_key, r.status])).toEqual([
      ['housekeeping:2026-11-23T10:00:00.000Z', 'done'],
      ['housekeeping:2026-11-23T11:00:00.000Z', 'pending'],
    ]);
    // Started again within the hour: nothing new; the next run waits for 11:00.
    await scheduleHousekeeping(ctx.services);
    expect(await jobs.runDueJobs()).toBe(0);
    clock.set('2026-11-23T11:00:01.000Z');
    expect(await jobs.runDueJobs()).toBe(1);
    expect(await rows()).toHaveLength(3);
  });
});
