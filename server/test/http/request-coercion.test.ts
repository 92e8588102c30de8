// Attacks through type coercion: a body must match the contract as written (only query, path and headers are
// coerced from text), and a path id has one spelling.
import { createTestContext, type TestContext } from '../support/context';
import { client, expectError, only, type Caller } from '../support/organisation-fixtures';
import { buildWorld } from '../support/world';

let ctx: TestContext;
let org: { tenantId: number; accountId: number };
let me: Caller;
let admin: Caller;

const userRow = (id: number) =>
  ctx.services.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const settingsRow = (id: number) =>
  ctx.services.db.selectFrom('user_settings').selectAll().where('user_id', '=', id).executeTakeFirst();

beforeAll(async () => {
  ctx = await createTestContext();
  const world = await buildWorld(ctx.services, {
    tenants: { coercion: 'Coercion' },
    users: {
      me: { tenants: ['coercion'] },
      admin: { tenants: ['coercion'], adminOf: ['coercion'], permissions: only() },
    },
  });
  ({ coercion: org } = world.tenants);
  ({ me, admin } = world.users);
  await ctx.services.db.updateTable('users').set({ phone_secondary: '+46700000009' }).where('id', '=', me.id).execute();
});
afterAll(() => ctx.close());

describe('request bodies are not type-coerced', () => {
  it('an empty string does not clear the secondary phone number ({"phoneNumbers":{"secondary":""}})', async () => {
    expectError(
      await client(ctx, me, org.tenantId).patch(`/users/${me.id}`, { phoneNumbers: { secondary: '' } }),
      400,
      'BAD_REQUEST',
    );
    expect((await userRow(me.id)).phone_secondary).toBe('+46700000009');
  });

  it('the text "false" is not taken as the boolean false (receiveEmails)', async () => {
    const res = await client(ctx, me, org.tenantId).patch(`/users/${me.id}/settings`, { receiveEmails: 'false' });
    expectError(res, 400, 'BAD_REQUEST');
    expect(res.body.error.issues).toEqual([expect.objectContaining({ where: 'body', path: '/receiveEmails' })]);
    expect((await settingsRow(me.id))?.receive_emails ?? true).toBe(true);
  });

  it('a number is not stored as a contact name ("name":12345)', async () => {
    const body = {
      accountId: org.accountId,
      name: 12345,
      title: '',
      email: 'n@coercion.test',
      phoneNumber: '+46700000002',
      type: 'DataProtectionOfficer',
    };
    expectError(await client(ctx, admin, org.tenantId).post('/contacts', body), 400, 'BAD_REQUEST');
    expect(
      await ctx.services.db.selectFrom('contacts').select('id').where('email', '=', 'n@coercion.test').execute(),
    ).toEqual([]);
  });

  it('a text account id is not taken as a number ("accountId":"1")', async () => {
    const body = {
      accountId: String(org.accountId),
      name: 'Text id',
      title: '',
      email: 't@coercion.test',
      phoneNumber: '+46700000002',
      type: 'DataProtectionOfficer',
    };
    expectError(await client(ctx, admin, org.tenantId).post('/contacts', body), 400, 'BAD_REQUEST');
  });
});

describe('path ids have one spelling', () => {
  it.each(['1.0', '01', '1e3', '+1', ' 1'])('the path id %j is refused', async (spelling) => {
    const id = spelling.replace('1', String(me.id)).replace(/^1e3$/, '1e3');
    const res = await client(ctx, me, org.tenantId).get(`/users/${encodeURIComponent(id)}/settings`);
    expectError(res, 400, 'BAD_REQUEST');
    expect(res.body.error.issues).toEqual([expect.objectContaining({ where: 'path', path: 'userId' })]);
  });

  it('the canonical spelling still works, and query numbers are still read from text', async () => {
    expect((await client(ctx, me, org.tenantId).get(`/users/${me.id}/settings`)).status).toBe(200);
    expect((await client(ctx, admin, org.tenantId).get('/contacts?limit=5&offset=0')).status).toBe(200);
  });
});
