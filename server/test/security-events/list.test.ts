import request from 'supertest';
import { recordSecurityEvent, recordSecurityEvents, regionOnly } from '../../src/modules/security-events';
import { eventClient } from '../../src/modules/security-events';
import { createTestContext, type TestContext } from '../support/context';
import { v1 } from '../support/fixtures';
import {
  client,
  expectError,
  insertCaller,
  insertOrganisation,
  makeTenantAdmin,
  type Caller,
} from '../support/organisation-fixtures';

let ctx: TestContext;
let orgA: { tenantId: number };
let orgB: { tenantId: number };
let adminA: Caller;
let adminB: Caller;
let member: Caller;
let outsider: Caller;
const phone = eventClient('eu-north-1', '203.0.113.77', 'Mozilla/5.0 (iPhone)');

beforeAll(async () => {
  ctx = await createTestContext();
  const s = ctx.services;
  orgA = await insertOrganisation(s, 'Alpha');
  orgB = await insertOrganisation(s, 'Beta');
  adminA = await insertCaller(s, { tenants: [orgA.tenantId] });
  await makeTenantAdmin(s, orgA.tenantId, adminA.id);
  adminB = await insertCaller(s, { tenants: [orgB.tenantId] });
  await makeTenantAdmin(s, orgB.tenantId, adminB.id);
  member = await insertCaller(s, { tenants: [orgA.tenantId] });
  outsider = await insertCaller(s, { tenants: [orgB.tenantId] });
  const db = s.db;
  await recordSecurityEvent(db, {
    kind: 'sign_in_failed',
    userId: member.id,
    client: phone,
    details: { method: 'password' },
  });
  await recordSecurityEvent(db, {
    kind: 'sign_in_succeeded',
    userId: member.id,
    client: phone,
    details: { method: 'password' },
  });
  await recordSecurityEvent(db, {
    kind: 'permission_granted',
    userId: member.id,
    tenantId: orgA.tenantId,
    actor: { type: 'user', userId: adminA.id },
    client: phone,
    details: { permission: 'cec.maySend' },
  });
  // Tenant B's own event about its member, and the account events of someone who is no member of A.
  await recordSecurityEvents(db, [
    { kind: 'sign_in_succeeded', userId: outsider.id, client: phone },
    {
      kind: 'member_updated',
      userId: outsider.id,
      tenantId: orgB.tenantId,
      actor: { type: 'scim' },
      client: regionOnly('eu-north-1'),
    },
  ]);
});
afterAll(() => ctx.close());

describe('GET /core/v1/security-events', () => {
  test("answers the tenant's events newest first: its own and its members' account events, coarse client only", async () => {
    const res = await client(ctx, adminA, orgA.tenantId).get('/security-events');
    expect(res.status).toBe(200);
    expect(res.body.data.map((e: { kind: string }) => e.kind)).toEqual([
      'permission_granted',
      'sign_in_succeeded',
      'sign_in_failed',
    ]);
    expect(res.body.data[0]).toEqual({
      id: expect.stringMatching(/^\d+$/),
      at: expect.any(String),
      kind: 'permission_granted',
      outcome: 'succeeded',
      tenantId: orgA.tenantId,
      userId: member.id,
      actor: { type: 'user', userId: adminA.id },
      region: 'eu-north-1',
      client: { network: '203.0.113.0/24', userAgent: 'Mozilla/5.0 (iPhone)' },
      details: { permission: 'cec.maySend' },
    });
    expect(res.body.data[2]).toMatchObject({ outcome: 'failed', actor: { type: 'self', userId: member.id } });
    expect(res.body.nextCursor).toBeNull();
  });

  test('pages by cursor and filters by user, kind and time', async () => {
    const api = client(ctx, adminA, orgA.tenantId);
    const first = await api.get('/security-events?limit=2');
    expect(first.body.data).toHaveLength(2);
    expect(first.body.nextCursor).toBe(first.body.data[1].id);
    const second = await api.get(`/security-events?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.data.map((e: { kind: string }) => e.kind)).toEqual(['sign_in_failed']);
    expect(second.body.nextCursor).toBeNull();
    const kinds = await api.get('/security-events?kind=sign_in_failed&kind=permission_granted');
    expect(kinds.body.data.map((e: { kind: string }) => e.kind)).toEqual(['permission_granted', 'sign_in_failed']);
    expect((await api.get(`/security-events?userId=${adminA.id}`)).body.data).toEqual([]);
    expect((await api.get(`/security-events?userId=${member.id}`)).body.data).toHaveLength(3);
    const early = await api.get('/security-events?to=2000-01-01T00%3A00%3A00Z');
    expect(early.body).toEqual({ data: [], nextCursor: null });
    expect((await api.get('/security-events?from=2000-01-01T00%3A00%3A00Z')).body.data).toHaveLength(3);
  });

  test("another tenant's administrator sees none of this tenant's events, nor its members' account events", async () => {
    const res = await client(ctx, adminB, orgB.tenantId).get(`/security-events?userId=${member.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    const all = await client(ctx, adminB, orgB.tenantId).get('/security-events');
    expect(all.body.data.map((e: { userId: number }) => e.userId)).toEqual([outsider.id, outsider.id]);
  });

  test("another tenant's administrator naming this tenant answers 403 FORBIDDEN", async () => {
    expectError(await client(ctx, adminB, orgA.tenantId).get('/security-events'), 403, 'FORBIDDEN');
  });

  test('a plain member answers 403 FORBIDDEN', async () => {
    expectError(await client(ctx, member, orgA.tenantId).get('/security-events'), 403, 'FORBIDDEN');
  });

  test('without a session answers 401', async () => {
    const res = await request(ctx.app).get('/core/v1/security-events').set(v1).set('cosafe-tenant-id', '1');
    expect(res.status).toBe(401);
  });

  test('an unknown kind or a bad cursor answers 400 BAD_REQUEST', async () => {
    expectError(await client(ctx, adminA, orgA.tenantId).get('/security-events?kind=password'), 400, 'BAD_REQUEST');
    expectError(await client(ctx, adminA, orgA.tenantId).get('/security-events?cursor=abc'), 400, 'BAD_REQUEST');
  });
});

describe('GET /core/v1/account/security-events', () => {
  test("answers the caller's own events only, across her tenants, 20 at most by default", async () => {
    const res = await request(ctx.app)
      .get('/core/v1/account/security-events')
      .set(v1)
      .set('authorization', `Bearer ${member.token}`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((e: { kind: string }) => e.kind)).toEqual([
      'permission_granted',
      'sign_in_succeeded',
      'sign_in_failed',
    ]);
    const other = await request(ctx.app)
      .get('/core/v1/account/security-events')
      .set(v1)
      .set('authorization', `Bearer ${adminA.token}`);
    expect(other.body.data).toEqual([]);
  });
});
