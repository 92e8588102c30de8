// Two tenants with one of everything, made the way the product makes them (through the API where the API creates
// the thing, direct inserts where only seed data or SCIM does): the ground the fuzzing and isolation suites walk.
// Everything of a tenant carries its marker in its name, so a leak shows up in any answer as plain text.
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { Services } from '../../../src/services';
import { issueTokens } from '../../../src/modules/sessions/tokens';
import { insertExternalGroup, insertSenderSettings, insertTemplate } from '../../support/crisis-fixtures';
import { addMember, insertAccount, insertGroup, makeTenantAdmin } from '../../support/organisation-fixtures';
import type { TestContext } from '../../support/context';
import type { Caller } from './requests';
import { insertTenant, insertUser, signIn, v1 } from '../../support/fixtures';

export interface TenantWorld {
  marker: string;
  tenantId: number;
  accountId: number;
  admin: { id: number; email: string; token: string };
  member: { id: number; email: string };
  groupId: number;
  meetingRoomId: number;
  contactId: number;
  externalGroupId: number;
  externalContactId: number;
  templateId: number;
  messageId: number;
  alarmId: number;
  apiKey: { id: string; key: string };
  scimUserId: string;
  scimGroupId: string;
  pushToken: string;
  /** Things of the tenant that delete operations may consume (so the ones above stay for everything else). */
  spare: { apiKeyId: string; contactId: number; scimUserId: string; scimGroupId: string; pushToken: string };
}

export interface World {
  A: TenantWorld;
  B: TenantWorld;
}

async function ok(res: request.Response, expected: number, what: string) {
  if (res.status !== expected)
    throw new Error(`${what} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 500)}`);
  return res.body;
}

async function buildTenant(ctx: TestContext, label: string): Promise<TenantWorld> {
  const { services, app } = ctx;
  const marker = `${label}-marker-${randomBytes(4).toString('hex')}`;
  const tenantId = await insertTenant(services, `${marker} tenant`);
  const accountId = await insertAccount(services, tenantId, `${marker} account`);
  const admin = await insertUser(services, {
    name: `${marker} admin`,
    email: `admin-${marker}@example.test`,
    tenants: [tenantId],
    phone: '+46700000100',
  });
  await makeTenantAdmin(services, tenantId, admin.id);
  const member = await insertUser(services, {
    name: `${marker} member`,
    email: `member-${marker}@example.test`,
    tenants: [tenantId],
    phone: '+46700000101',
  });
  const { accessToken } = await signIn(services, admin.id);
  const as = (r: request.Test) =>
    r.set(v1).set('authorization', `Bearer ${accessToken}`).set('cosafe-tenant-id', String(tenantId));

  const groupId = await insertGroup(services, { tenantId, accountId }, `${marker} group`);
  await addMember(services, groupId, admin.id, tenantId, true);
  await addMember(services, groupId, member.id, tenantId);
  const { id: meetingRoomId } = await services.db
    .insertInto('meeting_rooms')
    .values({ tenant_id: tenantId, name: `${marker} room`, url: `https://meet.example.test/${marker}` })
    .returning('id')
    .executeTakeFirstOrThrow();

  await insertSenderSettings(services, tenantId, `${marker} sender`, 'Sender');
  const externalGroup = await insertExternalGroup(services, tenantId, `${marker} cec group`, [
    { name: `${marker} contact`, email: `contact-${marker}@example.test`, phone: '+46700000102' },
  ]);
  const templateId = await insertTemplate(services, tenantId, `${marker} template`, `${marker} template text`);

  const contact = await ok(
    await as(request(app).post('/core/v1/contacts')).send({
      accountId,
      name: `${marker} support`,
      title: 'Support',
      email: `support-${marker}@example.test`,
      phoneNumber: '+46700000103',
      type: 'UserSupport',
    }),
    201,
    'createContact',
  );
  const message = await ok(
    await as(request(app).post('/core/v1/external-communications/messages')).send({
      externalCommunicationGroupIds: [externalGroup.id],
      text: `${marker} message`,
      channel: { isEmail: true, isSms: true },
      includeConfirmationLink: true,
    }),
    201,
    'sendCecMessage',
  );
  await services.jobs.runDueJobs();
  const alarm = await ok(
    await as(request(app).post('/core/v1/personal-alarms')).send({
      sender: { userId: admin.id, deviceId: `device-${marker}` },
      dispatchAt: new Date(services.now().getTime() + 3_600_000).toISOString(),
      location: { latitude: 59.33, longitude: 18.07 },
      active: true,
      text: `${marker} alarm`,
      oneMinuteWarning: true,
      recipientUserIds: [member.id],
      groupIds: [groupId],
    }),
    201,
    'createPersonalAlarm',
  );
  const apiKey = await ok(
    await as(request(app).post('/core/v1/api-keys')).send({ name: `${marker} key` }),
    201,
    'createApiKey',
  );
  await ok(
    await as(request(app).put('/core/v1/integrations/oidc')).send({
      clientId: `${marker}-client`,
      clientSecret: `${marker}-client-secret`,
      authorizationEndpoint: 'https://idp.example.test/authorize',
      tokenEndpoint: 'https://idp.example.test/token',
      jwksUri: 'https://idp.example.test/keys',
      issuer: 'https://idp.example.test',
    }),
    200,
    'putOidcSettings',
  );
  const scim = (r: request.Test) =>
    r.set('authorization', `Bearer ${apiKey.key}`).set('content-type', 'application/scim+json');
  const scimUser = await ok(
    await scim(request(app).post('/core/v1/scim/v2/Users')).send({
      userName: `scim-${marker}@example.test`,
      displayName: `${marker} scim user`,
      externalId: `${marker}-ext`,
    }),
    201,
    'createScimUser',
  );
  const scimGroup = await ok(
    await scim(request(app).post('/core/v1/scim/v2/Groups')).send({
      displayName: `${marker} scim group`,
      members: [{ value: scimUser.id }],
    }),
    201,
    'createScimGroup',
  );
  const pushToken = `push-${marker}`;
  const sparePushToken = `spare-push-${marker}`;
  for (const token of [pushToken, sparePushToken]) {
    await ok(
      await request(app)
        .put(`/core/v1/push-tokens/${token}`)
        .set(v1)
        .set('authorization', `Bearer ${accessToken}`)
        .send({ type: 'android', appVersion: '1.0.0' }),
      200,
      'putPushToken',
    );
  }
  const spareKey = await ok(
    await as(request(app).post('/core/v1/api-keys')).send({ name: `${marker} spare key` }),
    201,
    'createApiKey',
  );
  const spareContact = await ok(
    await as(request(app).post('/core/v1/contacts')).send({
      accountId,
      name: `${marker} spare`,
      title: '',
      email: `spare-${marker}@example.test`,
      phoneNumber: '+46700000104',
      type: 'DataProtectionOfficer',
    }),
    201,
    'createContact',
  );
  const spareScimUser = await ok(
    await scim(request(app).post('/core/v1/scim/v2/Users')).send({ userName: `spare-${marker}@example.test` }),
    201,
    'createScimUser',
  );
  const spareScimGroup = await ok(
    await scim(request(app).post('/core/v1/scim/v2/Groups')).send({ displayName: `${marker} spare group` }),
    201,
    'createScimGroup',
  );

  return {
    marker,
    tenantId,
    accountId,
    admin: { ...admin, token: accessToken },
    member,
    groupId,
    meetingRoomId,
    contactId: contact.id,
    externalGroupId: externalGroup.id,
    externalContactId: externalGroup.contactIds[0],
    templateId,
    messageId: message.id,
    alarmId: alarm.id,
    apiKey: { id: apiKey.apiKeyId, key: apiKey.key },
    scimUserId: scimUser.id,
    scimGroupId: scimGroup.id,
    pushToken,
    spare: {
      apiKeyId: spareKey.apiKeyId,
      contactId: spareContact.id,
      scimUserId: spareScimUser.id,
      scimGroupId: spareScimGroup.id,
      pushToken: sparePushToken,
    },
  };
}

export async function buildWorld(ctx: TestContext): Promise<World> {
  return { A: await buildTenant(ctx, 'A'), B: await buildTenant(ctx, 'B') };
}

/** A fresh session of the user (so a test may end or refresh it), with its refresh token. */
export async function freshSession(services: Services, userId: number) {
  const { sessionId } = await signIn(services, userId);
  return issueTokens(services, services.db, { id: sessionId, userId, factors: { password: 'verified' } });
}

/** A caller signed in as `userId` with a session of its own. */
export async function callerFor(services: Services, userId: number): Promise<Caller> {
  const s = await freshSession(services, userId);
  return { userId, sessionId: s.id, accessToken: s.accessToken, refreshToken: s.refreshToken };
}
