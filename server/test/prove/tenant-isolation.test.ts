// Tenant isolation sweep over every tenant-scoped operation of the contract (those that take cosafe-tenant-id),
// found from the contract so a new one is swept without touching this file. Tenant A's administrator:
//   1. with B's tenant header (and B's ids) is refused with 403 FORBIDDEN;
//   2. with A's header and B's ids (in the path, the body or the filters) gets 404, a refusal or an answer without
//      anything of B — never B's data;
// and after every request nothing of B's stored rows has changed. Every thing of B carries B's marker in its name,
// so any answer that shows B's data shows the marker. The same holds for SCIM with A's api key and B's ids, and
// for the user-level operations (push tokens, sessions) with B's ids.
import request from 'supertest';
import { recordSecurityEvent, regionOnly } from '../../src/modules/security-events';
import { flushVolume } from '../../src/notify/unusual-volume';
import { createTestContext, type TestContext } from '../support/context';
import { operations, type Operation } from './support/contract';
import { send, validBody, validRequest, type Caller, type Req } from './support/requests';
import { differences, tenantRows, type Snapshot } from './support/tenant-rows';
import { buildWorld, callerFor, type World } from './support/world';

let ctx: TestContext;
let world: World;
let before: Snapshot;
/** B's administrator's session, made before the snapshot (a session made later would itself be a change of B). */
let callerB: Caller;

beforeAll(async () => {
  ctx = await createTestContext();
  world = await buildWorld(ctx);
  callerB = await callerFor(ctx.services, world.B.admin.id);
  // The world's own messages and alarms are counted for the volume notice a second later: written now, before
  // the snapshot, so a write of B's counts made by the world is not taken for a change made by A's request.
  await flushVolume(ctx.services);
  // A security event of each tenant's administrator, so A's list has one of its own and B's one it must not show.
  for (const { admin } of [world.A, world.B])
    await recordSecurityEvent(ctx.services.db, {
      kind: 'sign_in_failed',
      userId: admin.id,
      client: regionOnly(ctx.services.config.region),
    });
  before = await tenantRows(ctx.services, world.B.tenantId);
}, 60_000);
afterAll(() => ctx.close());

const tenantScoped = operations().filter((op) => op.tenantScoped);

/** A's request that points at B's things: B's ids in the path; in bodies and filters, B's ids where they go. */
function aimedAtB(op: Operation, callerA: Caller): Req {
  const req = validRequest(op, world.B, callerB);
  const { A, B } = world;
  req.headers = {
    ...req.headers,
    authorization: `Bearer ${callerA.accessToken}`,
    'cosafe-tenant-id': String(A.tenantId),
  };
  const body = req.body as Record<string, any> | undefined;
  switch (op.operationId) {
    case 'createPersonalAlarm':
      req.body = {
        ...body,
        sender: { userId: A.admin.id, deviceId: `device-${B.marker}` },
        recipientUserIds: [B.member.id, B.admin.id],
        groupIds: [B.groupId],
      };
      break;
    case 'listGroups':
      req.query = { memberUserId: String(B.member.id) };
      break;
    case 'listContacts':
      req.query = { accountId: String(B.accountId) };
      break;
    case 'listCecMessages':
      req.query = { externalCommunicationGroupIds: String(B.externalGroupId) };
      break;
    default:
      if (op.body && body === undefined) req.body = validBody(op, B);
  }
  return req;
}

const leaksB = (res: request.Response) =>
  JSON.stringify(res.body ?? '').includes(world.B.marker) || (res.text ?? '').includes(world.B.marker);

async function expectBUnchanged(what: string) {
  const after = await tenantRows(ctx.services, world.B.tenantId);
  const changed = differences(before, after);
  if (changed.length) throw new Error(`${what} changed B's rows:\n${changed.join('\n')}`);
}

describe('tenant isolation: every tenant-scoped operation', () => {
  test('the sweep covers every tenant-scoped operation of the contract', () => {
    expect(tenantScoped.length).toBeGreaterThanOrEqual(30);
    expect(tenantScoped.map((op) => op.operationId)).toEqual(
      expect.arrayContaining([
        'getUser',
        'listGroups',
        'sendCecMessage',
        'createPersonalAlarm',
        'deleteApiKey',
        'putOidcSettings',
      ]),
    );
  });

  test("B's rows are found by the snapshot (it cannot pass by seeing nothing)", () => {
    const tables = [
      'tenants',
      'users',
      'memberships',
      'groups',
      'group_members',
      'meeting_rooms',
      'contacts',
      'api_keys',
      'cec_groups',
      'cec_messages',
      'cec_message_recipients',
      'dispatches',
      'personal_alarms',
      'oidc_settings',
      'scim_groups',
      'push_tokens',
      'sessions',
      'jobs',
    ];
    expect(tables.filter((table) => (before[table]?.length ?? 0) === 0)).toEqual([]);
  });

  describe("A's credentials with B's tenant header answer 403 FORBIDDEN", () => {
    test.each(tenantScoped.map((op) => [op.operationId, op] as const))('%s', async (_id, op) => {
      const callerA = await callerFor(ctx.services, world.A.admin.id);
      const req = validRequest(op, world.B, callerB);
      req.headers = {
        ...req.headers,
        authorization: `Bearer ${callerA.accessToken}`,
        'cosafe-tenant-id': String(world.B.tenantId),
      };
      const res = await send(ctx.app, req);
      expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
      expect(leaksB(res)).toBe(false);
      await expectBUnchanged(`${op.operationId} with B's header`);
    });
  });

  describe("A's credentials and header with B's ids reveal and change nothing of B", () => {
    test.each(tenantScoped.map((op) => [op.operationId, op] as const))('%s', async (_id, op) => {
      const callerA = await callerFor(ctx.services, world.A.admin.id);
      const res = await send(ctx.app, aimedAtB(op, callerA));
      expect(res.status).toBeLessThan(500);
      // B's id in the path: never found. B's ids in a body: refused. B's ids as filters: an empty list.
      if (/\{/.test(op.path) || ['createContact', 'sendCecMessage', 'createPersonalAlarm'].includes(op.operationId))
        expect(res.status).toBeGreaterThanOrEqual(400);
      if (['listGroups', 'listContacts', 'listCecMessages'].includes(op.operationId))
        expect({ status: res.status, data: res.body.data }).toEqual({ status: 200, data: [] });
      expect(leaksB(res)).toBe(false);
      await expectBUnchanged(`${op.operationId} with B's ids`);
    });
  });

  test("A's own lists show nothing of B", async () => {
    const callerA = await callerFor(ctx.services, world.A.admin.id);
    for (const op of tenantScoped.filter((o) => o.method === 'get' && !/\{/.test(o.path))) {
      const res = await send(ctx.app, validRequest(op, world.A, callerA));
      expect({ op: op.operationId, status: res.status }).toEqual({ op: op.operationId, status: 200 });
      expect({ op: op.operationId, leak: leaksB(res) }).toEqual({ op: op.operationId, leak: false });
      if (op.operationId === 'listSecurityEvents') {
        // Events name their users by id, not by a marked name: none may be of B's people or B's tenant, and A's
        // administrator's own sign-in is there (not vacuous).
        const events = res.body.data as { userId: number | null; tenantId: number | null }[];
        const ofB = new Set([world.B.admin.id, world.B.member.id]);
        const leak = events.some((e) => (e.userId !== null && ofB.has(e.userId)) || e.tenantId === world.B.tenantId);
        expect({ op: op.operationId, leak }).toEqual({ op: op.operationId, leak: false });
        const showsA = events.some((e) => e.userId === world.A.admin.id);
        expect({ op: op.operationId, showsA }).toEqual({ op: op.operationId, showsA: true });
      }
      // Not vacuous: each of these lists shows A's own things (they carry A's marker).
      else if (Array.isArray(res.body?.data))
        expect({ op: op.operationId, showsA: JSON.stringify(res.body).includes(world.A.marker) }).toEqual({
          op: op.operationId,
          showsA: true,
        });
    }
  });
});

describe('isolation of the operations scoped by api key or by user', () => {
  // Operations on a tenant's users and groups by id. The discovery documents by id (/ResourceTypes/{id},
  // /Schemas/{urn}) describe the service, the same for every tenant, and own nothing of B's.
  const scimOps = operations().filter(
    (op) => op.security.includes('scimApiKey') && /\/(Users|Groups)\/\{/.test(op.path),
  );

  test.each(scimOps.map((op) => [op.operationId, op] as const))(
    "SCIM %s with A's api key and B's id answers 404",
    async (_id, op) => {
      const req = validRequest(op, world.B, callerB);
      req.headers = { ...req.headers, authorization: `Bearer ${world.A.apiKey.key}` };
      const res = await send(ctx.app, req);
      expect(res.status).toBe(404);
      expect(leaksB(res)).toBe(false);
      await expectBUnchanged(`SCIM ${op.operationId}`);
    },
  );

  test("SCIM lists and filters with A's api key show nothing of B", async () => {
    for (const path of [
      '/Users',
      '/Groups',
      `/Users?filter=${encodeURIComponent(`userName eq "scim-${world.B.marker}@example.test"`)}`,
      `/Groups?filter=${encodeURIComponent(`id eq "${world.B.scimGroupId}"`)}`,
    ]) {
      const res = await request(ctx.app)
        .get(`/core/v1/scim/v2${path}`)
        .set('authorization', `Bearer ${world.A.apiKey.key}`);
      expect(res.status).toBe(200);
      expect(leaksB(res)).toBe(false);
    }
  });

  test("removing B's push token with A's session answers 404 and keeps it", async () => {
    const callerA = await callerFor(ctx.services, world.A.admin.id);
    const res = await request(ctx.app)
      .delete(`/core/v1/push-tokens/${world.B.pushToken}`)
      .set('cosafe-core-api-version', '1')
      .set('authorization', `Bearer ${callerA.accessToken}`);
    expect(res.status).toBe(404);
    await expectBUnchanged('deletePushToken');
  });

  test("ending or refreshing B's session with A's tokens fails and leaves it alive", async () => {
    const callerA = await callerFor(ctx.services, world.A.admin.id);
    const ended = await request(ctx.app)
      .delete(`/core/v1/sessions/${callerB.sessionId}`)
      .set('cosafe-core-api-version', '1')
      .set('authorization', `Bearer ${callerA.accessToken}`);
    expect(ended.status).toBeGreaterThanOrEqual(400);
    expect(ended.status).toBeLessThan(500);
    const refreshed = await request(ctx.app)
      .put(`/core/v1/sessions/${callerB.sessionId}`)
      .set('cosafe-core-api-version', '1')
      .set('authorization', `Bearer ${callerA.refreshToken}`);
    expect(refreshed.status).toBe(401);
    await expectBUnchanged('deleteSession and refreshSession');
    const still = await request(ctx.app)
      .get('/core/v1/tenants')
      .set('cosafe-core-api-version', '1')
      .set('authorization', `Bearer ${callerB.accessToken}`);
    expect(still.status).toBe(200);
  });
});
