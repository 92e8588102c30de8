// Security events' retention (hourly housekeeping, SECURITY_EVENT_RETENTION_DAYS), the operator tool's list and
// JSON-lines export, and the metric: counts per kind, no label that names a person.
import { loadConfig } from '../../src/config';
import { runHousekeeping } from '../../src/jobs/housekeeping';
import { registry } from '../../src/metrics/metrics';
import { recordSecurityEvent, recordSecurityEvents, eventClient, regionOnly } from '../../src/modules/security-events';
import { exportBatch } from '../../src/modules/security-events';
import { adminRunner, expectRefused } from '../admin/admin-fixtures';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, insertUser } from '../support/fixtures';

let ctx: TestContext;
let admin: ReturnType<typeof adminRunner>;
const now = new Date('2026-11-29T12:00:00.000Z');
const daysAgo = (n: number) => new Date(now.getTime() - n * 86_400_000);
beforeAll(async () => {
  ctx = await createTestContext({ now: () => now, env: { SECURITY_EVENT_RETENTION_DAYS: '30' } });
  admin = adminRunner(ctx);
});
afterAll(() => ctx.close());

const client = eventClient('eu-north-1', '203.0.113.5', 'Agent/1');
const idsOf = async (userId: number) =>
  (await ctx.services.db.selectFrom('security_events').select('at').where('user_id', '=', userId).execute()).map((r) =>
    r.at.toISOString(),
  );

describe('retention', () => {
  test('housekeeping removes events older than SECURITY_EVENT_RETENTION_DAYS and keeps the younger ones', async () => {
    const user = await insertUser(ctx.services);
    await recordSecurityEvents(ctx.services.db, [
      { kind: 'sign_in_failed', userId: user.id, client, at: daysAgo(31) },
      { kind: 'sign_in_succeeded', userId: user.id, client, at: daysAgo(29) },
    ]);
    const counts = await runHousekeeping(ctx.services);
    expect(counts.security_events).toBeGreaterThanOrEqual(1);
    expect(await idsOf(user.id)).toEqual([daysAgo(29).toISOString()]);
  });

  test('the retention is SECURITY_EVENT_RETENTION_DAYS, 180 days unless configured, 1 to 3650', () => {
    expect(ctx.services.config.runtime.securityEventRetentionDays).toBe(30);
    expect(loadConfig({}).runtime.securityEventRetentionDays).toBe(180);
    expect(() => loadConfig({ SECURITY_EVENT_RETENTION_DAYS: '0' })).toThrow(/SECURITY_EVENT_RETENTION_DAYS/);
  });
});

describe('npm run admin -- security-events', () => {
  test("list prints a tenant's newest events as lines; export writes every match as JSON lines, oldest first", async () => {
    const tenant = await insertTenant(ctx.services, 'Tool School');
    const user = await insertUser(ctx.services, { email: 'tool.user@school.example', tenants: [tenant] });
    await recordSecurityEvent(ctx.services.db, { kind: 'sign_in_failed', userId: user.id, client, at: daysAgo(2) });
    await recordSecurityEvent(ctx.services.db, {
      kind: 'permission_granted',
      userId: user.id,
      tenantId: tenant,
      actor: { type: 'operator' },
      client: regionOnly('eu-north-1'),
      details: { permission: 'cec.maySend' },
      at: daysAgo(1),
    });
    const list = await admin(['security-events', 'list', '--tenant', String(tenant)]);
    expect(list.code).toBe(0);
    const lines = list.out.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('permission_granted (succeeded)');
    expect(lines[0]).toContain('by operator');
    expect(lines[1]).toContain('sign_in_failed (failed)');
    expect(lines[1]).toContain('from 203.0.113.0/24');

    const exported = await admin(['security-events', 'export', '--user', 'tool.user@school.example']);
    expect(exported.code).toBe(0);
    const rows = exported.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.map((r) => r.kind)).toEqual(['sign_in_failed', 'permission_granted']);
    expect(rows[0]).toMatchObject({ userId: user.id, client: { network: '203.0.113.0/24', userAgent: 'Agent/1' } });

    const kinds = await admin(['security-events', 'export', '--tenant', String(tenant), '--kind', 'sign_in_failed']);
    expect(kinds.out.trim().split('\n')).toHaveLength(1);
    const since = await admin([
      'security-events',
      'list',
      '--tenant',
      String(tenant),
      '--since',
      daysAgo(1.5).toISOString(),
    ]);
    expect(since.out.trim().split('\n')).toHaveLength(1);
  });

  test('export reads in batches: more events than one batch all come out, each once, in order', async () => {
    const user = await insertUser(ctx.services, { email: 'many.events@school.example' });
    const events = Array.from({ length: exportBatch + 7 }, (_, i) => ({
      kind: 'sign_in_failed' as const,
      userId: user.id,
      client,
      at: new Date(daysAgo(3).getTime() + i * 1000),
    }));
    await recordSecurityEvents(ctx.services.db, events);
    const exported = await admin(['security-events', 'export', '--user', 'many.events@school.example']);
    const rows = exported.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows).toHaveLength(exportBatch + 7);
    expect(new Set(rows.map((r) => r.id)).size).toBe(exportBatch + 7);
    expect(rows.map((r) => Number(r.id))).toEqual([...rows.map((r) => Number(r.id))].sort((a, b) => a - b));
  });

  test('an unknown kind, a bad instant or an unknown tenant is refused in one line', async () => {
    expectRefused(await admin(['security-events', 'list', '--kind', 'password']), /must be one of/i);
    expectRefused(await admin(['security-events', 'list', '--since', 'yesterday']), /date or an instant/);
    expectRefused(await admin(['security-events', 'export', '--tenant', '999999']), /There is no tenant 999999/);
  });
});

describe('metrics', () => {
  test('core_security_events_total counts written events by kind, with no other label', async () => {
    const metric = registry.getSingleMetric('core_security_events_total')!;
    const before = (await metric.get()).values.find((v) => v.labels.kind === 'passkey_removed')?.value ?? 0;
    const user = await insertUser(ctx.services);
    await recordSecurityEvents(ctx.services.db, [
      { kind: 'passkey_removed', userId: user.id, client },
      { kind: 'passkey_removed', userId: user.id, client },
    ]);
    const values = (await metric.get()).values;
    expect(values.find((v) => v.labels.kind === 'passkey_removed')?.value).toBe(before + 2);
    for (const v of values) expect(Object.keys(v.labels)).toEqual(['kind']);
  });
});
