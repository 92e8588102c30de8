// SCIM as RFC 7643 and RFC 7644 describe it, beyond what provisioning clients send day to day: discovery that says
// exactly what the service does, the parts of a name, search by POST, attribute projection and PATCH remove.
import { readFileSync } from 'node:fs';
import { bundlePath } from '../../src/http/spec';
import type { TestContext } from '../support/context';
import { createSsoTestContext, ssoTenant } from '../support/enterprise-fixtures';
import request from 'supertest';
import { entraUser, scim, scimBase, scimKey } from '../support/scim-client';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createSsoTestContext();
});
afterAll(() => ctx.close());

const userUrn = 'urn:ietf:params:scim:schemas:core:2.0:User';
const groupUrn = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const errorUrn = 'urn:ietf:params:scim:api:messages:2.0:Error';
let counter = 0;

async function directory() {
  const tenant = await ssoTenant(ctx.services, 'oidc');
  const client = scim(ctx, await scimKey(ctx, tenant));
  const email = () => `person${++counter}@${tenant.domain}`;
  const user = async (extra: object = {}) => {
    const res = await client.post('/Users', { ...entraUser(email()), ...extra });
    expect(res.status).toBe(201);
    return res.body as { id: string; userName: string } & Record<string, unknown>;
  };
  return { ...tenant, client, email, user };
}

interface SchemaAttribute {
  name: string;
  type: string;
  multiValued: boolean;
  mutability: string;
  required: boolean;
  canonicalValues?: string[];
  subAttributes?: SchemaAttribute[];
}

describe('discovery: RFC 7644 section 4 and RFC 7643 sections 5-7', () => {
  test('GET /ResourceTypes/{id} and /Schemas/{urn} answer each resource of the lists; others 404 in SCIM shape', async () => {
    const d = await directory();
    const types = (await d.client.get('/ResourceTypes')).body.Resources;
    for (const type of types) {
      const one = await d.client.get(`/ResourceTypes/${type.id}`);
      expect(one.status).toBe(200);
      expect(one.headers['content-type']).toMatch(/^application\/scim\+json/);
      expect(one.body).toEqual(type);
      expect(type.meta.location).toBe(`http://127.0.0.1:4000/core/v1/scim/v2/ResourceTypes/${type.id}`);
    }
    const schemas = (await d.client.get('/Schemas')).body.Resources;
    for (const schema of schemas) {
      expect((await d.client.get(`/Schemas/${schema.id}`)).body).toEqual(schema);
      // Schema URIs compare case-insensitively (RFC 7643 section 2.1).
      expect((await d.client.get(`/Schemas/${schema.id.toUpperCase()}`)).body).toEqual(schema);
    }
    for (const path of ['/ResourceTypes/Device', '/Schemas/urn:ietf:params:scim:schemas:core:2.0:Device']) {
      const res = await d.client.get(path);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
      expect(res.body).toMatchObject({ schemas: [errorUrn], status: '404' });
    }
  });

  /** A value for an advertised attribute, as its schema and description demand. */
  function sample(attribute: SchemaAttribute, parent: string, email: string, round: number): unknown {
    const path = parent ? `${parent}.${attribute.name}` : attribute.name;
    if (attribute.type === 'complex') {
      const item = Object.fromEntries(
        (attribute.subAttributes ?? [])
          .filter((s) => s.mutability !== 'readOnly')
          .map((s) => [s.name, sample(s, path, email, round)]),
      );
      return attribute.multiValued ? [item] : item;
    }
    if (attribute.canonicalValues) return attribute.canonicalValues[0];
    if (attribute.type === 'boolean') return path === 'phoneNumbers.primary' ? true : round % 2 === 0;
    if (path === 'userName') return email;
    if (path === 'phoneNumbers.value') return `+4670000${String(round).padStart(4, '0')}`;
    return `${path} ${round}`;
  }

  test('every readWrite attribute /Schemas advertises round-trips through PUT and GET; readOnly ones are not written', async () => {
    const d = await directory();
    const userSchema = (await d.client.get(`/Schemas/${userUrn}`)).body as { attributes: SchemaAttribute[] };
    const created = await d.user();
    let round = 0;
    for (const attribute of userSchema.attributes) {
      round++;
      const email = d.email();
      const body: Record<string, unknown> = { schemas: [userUrn], userName: email };
      // A readOnly attribute's value is sent too: the service ignores it (RFC 7643 section 7).
      body[attribute.name] =
        attribute.mutability === 'readOnly'
          ? [{ value: `other${round}@elsewhere.test`, type: 'work', primary: true }]
          : sample(attribute, '', email, round);
      const put = await d.client.put(`/Users/${created.id}`, body);
      expect({ attribute: attribute.name, status: put.status, body: put.status === 200 ? {} : put.body }).toEqual({
        attribute: attribute.name,
        status: 200,
        body: {},
      });
      const got = (await d.client.get(`/Users/${created.id}`)).body;
      expect(got).toEqual(put.body);
      if (attribute.mutability === 'readWrite')
        expect({ [attribute.name]: got[attribute.name] }).toEqual({ [attribute.name]: body[attribute.name] });
      else expect(got.emails).toEqual([{ value: email, type: 'work', primary: true }]);
    }
    // Every attribute of the schema was tried, and required ones are required.
    expect(userSchema.attributes.map((a) => a.name)).toEqual(
      expect.arrayContaining(['userName', 'name', 'displayName', 'title', 'active', 'emails', 'phoneNumbers']),
    );
    const missing = await d.client.put(`/Users/${created.id}`, { schemas: [userUrn], displayName: 'No userName' });
    expect(missing.status).toBe(400);

    const groupSchema = (await d.client.get(`/Schemas/${groupUrn}`)).body as { attributes: SchemaAttribute[] };
    expect(groupSchema.attributes.map((a) => a.name)).toEqual(['displayName', 'members']);
    const group = await d.client.post('/Groups', { displayName: 'Round trip', members: [{ value: created.id }] });
    expect(group.status).toBe(201);
    // members.display is readOnly: what the service answers is the user's displayName, whatever was sent.
    const replaced = await d.client.put(`/Groups/${group.body.id}`, {
      displayName: 'Round trip 2',
      members: [{ value: created.id, display: 'Not the name' }],
    });
    expect(replaced.body).toMatchObject({ displayName: 'Round trip 2', members: [{ value: created.id }] });
    expect(replaced.body.members[0].display).not.toBe('Not the name');
  });

  test('what ServiceProviderConfig advertises works, and what it does not is refused (RFC 7643 section 5)', async () => {
    const d = await directory();
    const config = (await d.client.get('/ServiceProviderConfig')).body;
    const a = await d.user();
    await d.user();
    await d.user();
    // filter.supported with maxResults: a filter narrows, and no page is longer than maxResults.
    expect(config.filter).toEqual({ supported: true, maxResults: 100 });
    const filtered = await d.client.get(`/Users?filter=${encodeURIComponent(`userName eq "${a.userName}"`)}`);
    expect(filtered.body.Resources.map((u: { id: string }) => u.id)).toEqual([a.id]);
    expect((await d.client.get('/Users?count=1000')).body.itemsPerPage).toBeLessThanOrEqual(config.filter.maxResults);
    // patch.supported
    expect(config.patch.supported).toBe(true);
    expect((await d.client.patch(`/Users/${a.id}`, [{ op: 'replace', path: 'title', value: 'Head' }])).body.title).toBe(
      'Head',
    );
    // sort.supported false: sortBy is refused rather than ignored (RFC 7644 section 3.4.2.3).
    expect(config.sort.supported).toBe(false);
    expect((await d.client.get('/Users?sortBy=userName')).status).toBe(400);
    expect((await d.client.post('/Users/.search', { schemas: [searchUrn], sortBy: 'userName' })).status).toBe(400);
    // etag.supported false: no ETag on resources (RFC 7644 section 3.14).
    expect(config.etag.supported).toBe(false);
    expect((await d.client.get(`/Users/${a.id}`)).headers.etag).toBeUndefined();
    // bulk.supported false: there is no /Bulk (RFC 7644 section 3.7).
    expect(config.bulk.supported).toBe(false);
    const bulk = await d.client.post('/Bulk', { schemas: ['urn:ietf:params:scim:api:messages:2.0:BulkRequest'] });
    expect(bulk.status).toBe(404);
    expect(bulk.body).toMatchObject({ schemas: [errorUrn], status: '404' });
  });
});

const searchUrn = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';

describe('names: RFC 7643 section 4.1.1', () => {
  test('givenName, familyName and formatted are stored and returned; the platform name derives from them', async () => {
    const d = await directory();
    const okta = await d.client.post('/Users', {
      schemas: [userUrn],
      userName: d.email(),
      name: { givenName: 'Björn', familyName: 'Ek' },
    });
    expect(okta.status).toBe(201);
    expect(okta.body.name).toEqual({ givenName: 'Björn', familyName: 'Ek', formatted: 'Björn Ek' });
    expect(okta.body.displayName).toBe('Björn Ek');
    const row = await ctx.services.db
      .selectFrom('users')
      .select(['name', 'given_name', 'family_name', 'name_formatted'])
      .where('id', '=', Number(okta.body.id))
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ name: 'Björn Ek', given_name: 'Björn', family_name: 'Ek', name_formatted: null });

    const entra = await d.user();
    expect(entra.name).toEqual({ formatted: 'Anna Andersson', givenName: 'Anna', familyName: 'Andersson' });
    const patched = await d.client.patch(`/Users/${entra.id}`, [
      { op: 'Replace', path: 'name.givenName', value: 'Annika' },
      { op: 'Replace', path: 'name.formatted', value: 'Annika Andersson' },
    ]);
    expect(patched.body.name).toEqual({ formatted: 'Annika Andersson', givenName: 'Annika', familyName: 'Andersson' });
    expect((await d.client.get(`/Users/${entra.id}`)).body.name).toEqual(patched.body.name);
    // add merges sub-attributes, replace sets the whole name (RFC 7644 sections 3.5.2.1, 3.5.2.3).
    const added = await d.client.patch(`/Users/${entra.id}`, [
      { op: 'add', path: 'name', value: { familyName: 'Berg' } },
    ]);
    expect(added.body.name).toEqual({ formatted: 'Annika Andersson', givenName: 'Annika', familyName: 'Berg' });
    const replaced = await d.client.patch(`/Users/${entra.id}`, [
      { op: 'replace', path: 'name', value: { givenName: 'Li' } },
    ]);
    expect(replaced.body.name).toEqual({ formatted: 'Li', givenName: 'Li' });
  });
});

describe('search: RFC 7644 section 3.4.3', () => {
  test('POST /Users/.search and /Groups/.search take filter, attributes, excludedAttributes, startIndex and count', async () => {
    const d = await directory();
    const a = await d.user();
    const b = await d.user();
    const found = await d.client.post('/Users/.search', {
      schemas: [searchUrn],
      filter: `userName eq "${b.userName}"`,
      attributes: ['userName', 'name.givenName'],
    });
    expect(found.status).toBe(200);
    expect(found.headers['content-type']).toMatch(/^application\/scim\+json/);
    expect(found.body).toMatchObject({ totalResults: 1, startIndex: 1, itemsPerPage: 1 });
    expect(found.body.Resources).toEqual([
      { schemas: [userUrn], id: b.id, userName: b.userName, name: { givenName: 'Anna' } },
    ]);
    const page = await d.client.post('/Users/.search', {
      schemas: [searchUrn],
      startIndex: 2,
      count: 1,
      excludedAttributes: ['emails', 'meta'],
    });
    const listed = (await d.client.get('/Users?startIndex=2&count=1')).body;
    expect(page.body).toMatchObject({ totalResults: listed.totalResults, startIndex: 2, itemsPerPage: 1 });
    expect(page.body.Resources[0].id).toBe(listed.Resources[0].id);
    expect(page.body.Resources[0].emails).toBeUndefined();
    expect(page.body.Resources[0].meta).toBeUndefined();
    expect(page.body.Resources[0].userName).toBe(listed.Resources[0].userName);

    await d.client.post('/Groups', { displayName: 'Searchers', members: [{ value: a.id }] });
    const groups = await d.client.post('/Groups/.search', {
      schemas: [searchUrn],
      filter: 'displayName eq "searchers"',
      excludedAttributes: ['members'],
    });
    expect(groups.body.totalResults).toBe(1);
    expect(groups.body.Resources[0]).not.toHaveProperty('members');
    const bad = await d.client.post('/Users/.search', { schemas: [searchUrn], filter: 'title co "x"' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ schemas: [errorUrn], scimType: 'invalidFilter' });
    const noSchema = await d.client.post('/Users/.search', { filter: `userName eq "${a.userName}"` });
    expect(noSchema.status).toBe(400);
  });
});

describe('attributes and excludedAttributes: RFC 7644 sections 3.4.2.5 and 3.9', () => {
  test('on every operation that returns a resource, single and list; id and schemas always; empty is no filter', async () => {
    const d = await directory();
    const u = await d.user();
    const only = await d.client.get(`/Users/${u.id}?attributes=userName`);
    expect(only.status).toBe(200);
    expect(only.body).toEqual({ schemas: expect.any(Array), id: u.id, userName: u.userName });
    // Case-insensitive, with the schema URN, sub-attributes.
    const urn = await d.client.get(`/Users/${u.id}?attributes=${userUrn}:NAME.familyName,DisplayName`);
    expect(urn.body).toEqual({
      schemas: [userUrn],
      id: u.id,
      displayName: 'Anna Andersson',
      name: { familyName: 'Andersson' },
    });
    const without = await d.client.get(`/Users/${u.id}?excludedAttributes=emails,name.givenName,phoneNumbers.type`);
    expect(without.body.emails).toBeUndefined();
    expect(without.body.name).toEqual({ formatted: 'Anna Andersson', familyName: 'Andersson' });
    expect(without.body.phoneNumbers).toEqual([{ value: '+46701234567', primary: true }]);
    expect(without.body.userName).toBe(u.userName);
    // id and schemas cannot be excluded.
    expect((await d.client.get(`/Users/${u.id}?excludedAttributes=id,schemas`)).body).toMatchObject({
      id: u.id,
      schemas: expect.any(Array),
    });
    const list = await d.client.get(`/Users?attributes=userName&filter=${encodeURIComponent(`id eq "${u.id}"`)}`);
    expect(list.body.Resources).toEqual([
      { schemas: [userUrn, expect.any(String)].slice(0, 1), id: u.id, userName: u.userName },
    ]);
    // An empty value is the same as none.
    for (const q of ['attributes=', 'excludedAttributes=', 'attributes=&excludedAttributes=']) {
      const res = await d.client.get(`/Users/${u.id}?${q}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual((await d.client.get(`/Users/${u.id}`)).body);
    }
    // On create, replace and patch too.
    const created = await d.client
      .post('/Users?attributes=userName', { schemas: [userUrn], userName: d.email() })
      .then((r) => r.body);
    expect(Object.keys(created).sort()).toEqual(['id', 'schemas', 'userName']);
    const put = await d.client.put(`/Users/${created.id}?excludedAttributes=meta`, {
      schemas: [userUrn],
      userName: created.userName,
      title: 'Nurse',
    });
    expect(put.body.meta).toBeUndefined();
    expect(put.body.title).toBe('Nurse');
    const patched = await d.client.patch(`/Users/${created.id}?attributes=title`, [
      { op: 'replace', path: 'title', value: 'Doctor' },
    ]);
    expect(patched.body).toEqual({ schemas: [userUrn], id: created.id, title: 'Doctor' });

    const group = await d.client.post('/Groups?attributes=displayName', {
      displayName: 'Projected',
      members: [{ value: u.id }],
    });
    expect(group.body).toEqual({ schemas: [groupUrn], id: group.body.id, displayName: 'Projected' });
    expect((await d.client.get(`/Groups/${group.body.id}?attributes=members.value`)).body).toEqual({
      schemas: [groupUrn],
      id: group.body.id,
      members: [{ value: u.id }],
    });
    expect((await d.client.get(`/Groups?attributes=meta.location`)).body.Resources[0]).toEqual({
      schemas: [groupUrn],
      id: group.body.id,
      meta: { location: expect.stringMatching(/\/Groups\/\d+$/) },
    });
  });
});

describe('PATCH remove: RFC 7644 section 3.5.2.2', () => {
  test('remove is applied where the attribute may be removed', async () => {
    const d = await directory();
    const u = await d.user();
    const res = await d.client.patch(`/Users/${u.id}`, [
      { op: 'Remove', path: 'title' },
      { op: 'remove', path: 'name.givenName' },
      { op: 'remove', path: 'phoneNumbers[type eq "mobile"]' },
      { op: 'remove', path: 'externalId' },
    ]);
    expect(res.status).toBe(200);
    const got = (await d.client.get(`/Users/${u.id}`)).body;
    expect(got.title).toBeUndefined();
    expect(got.name).toEqual({ formatted: 'Anna Andersson', familyName: 'Andersson' });
    expect(got.phoneNumbers).toBeUndefined();
    expect(got.externalId).toBeUndefined();
    expect((await d.client.patch(`/Users/${u.id}`, [{ op: 'remove', path: 'name' }])).body.name).toBeUndefined();
    expect((await d.client.get(`/Users/${u.id}`)).body.displayName).toBe('Anna Andersson');
  });

  test('remove of an attribute that may not be removed answers 400 mutability and changes nothing', async () => {
    const d = await directory();
    const u = await d.user();
    const before = (await d.client.get(`/Users/${u.id}`)).body;
    for (const path of ['emails', 'emails[type eq "work"].value', 'userName']) {
      const res = await d.client.patch(`/Users/${u.id}`, [
        { op: 'replace', path: 'title', value: 'Changed' },
        { op: 'remove', path },
      ]);
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
      expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
      expect(res.body).toMatchObject({ schemas: [errorUrn], status: '400', scimType: 'mutability' });
    }
    expect((await d.client.get(`/Users/${u.id}`)).body).toEqual(before);

    const group = (await d.client.post('/Groups', { displayName: 'Keep my name' })).body;
    const res = await d.client.patch(`/Groups/${group.id}`, [{ op: 'remove', path: 'displayName' }]);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ scimType: 'mutability' });
    expect((await d.client.get(`/Groups/${group.id}`)).body.displayName).toBe('Keep my name');
  });
});

describe('the contract says what the server accepts', () => {
  test("the /Groups filter example is a Groups filter; active admits booleans and 'true'/'false' only; add and replace need a value", async () => {
    const d = await directory();
    const bundle = JSON.parse(readFileSync(bundlePath, 'utf8'));
    const groupsFilter = bundle.paths['/scim/v2/Groups'].get.parameters
      .map((p: { $ref?: string }) => (p.$ref ? bundle.components.parameters[p.$ref.split('/').pop()!] : p))
      .find((p: { name: string }) => p.name === 'filter');
    for (const example of groupsFilter.schema.examples)
      expect((await d.client.get(`/Groups?filter=${encodeURIComponent(example)}`)).status).toBe(200);
    // RFC 7643 section 2.3.2: a boolean is true or false (Entra ID sends them as strings).
    for (const active of ['0000', 'yes', '1', ''])
      expect((await d.client.post('/Users', { userName: d.email(), active })).status).toBe(400);
    expect((await d.client.post('/Users', { userName: d.email(), active: 'TRUE' })).status).toBe(201);
    const u = await d.user();
    // RFC 7644 section 3.5.2.1 and 3.5.2.3: add and replace carry a value.
    for (const op of ['add', 'Replace']) {
      const res = await d.client.patch(`/Users/${u.id}`, [{ op, path: 'title' }]);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ schemas: [errorUrn], status: '400' });
    }
    // A NUL in any string of a request answers 400 (the contract's introduction says so).
    expect(bundle.info.description).toContain('U+0000');
    expect((await d.client.patch(`/Users/${u.id}`, [{ op: 'replace', path: 'title', value: 'a\u0000b' }])).status).toBe(
      400,
    );
  });
});

describe('PATCH remove of what /Schemas publishes as optional: RFC 7644 section 3.5.2.2', () => {
  test('remove of displayName gives the name the platform derives; remove of active makes the user active, as a PUT without it does', async () => {
    const d = await directory();
    const schema = (await d.client.get(`/Schemas/${userUrn}`)).body as { attributes: SchemaAttribute[] };
    for (const name of ['displayName', 'active'])
      expect(schema.attributes.find((a) => a.name === name)).toMatchObject({
        required: false,
        mutability: 'readWrite',
      });

    const named = await d.user({ displayName: 'Nickname' });
    expect(named.displayName).toBe('Nickname');
    const removed = await d.client.patch(`/Users/${named.id}`, [{ op: 'remove', path: 'displayName' }]);
    expect(removed.status).toBe(200);
    expect(removed.body.displayName).toBe('Anna Andersson');
    expect((await d.client.get(`/Users/${named.id}`)).body.displayName).toBe('Anna Andersson');
    // Without name parts the name the platform shows is the address, as when a create sends no name at all.
    const bare = (await d.client.post('/Users', { schemas: [userUrn], userName: d.email(), displayName: 'Only this' }))
      .body;
    const bareRemoved = await d.client.patch(`/Users/${bare.id}`, [
      { op: 'remove', path: 'urn:ietf:params:scim:schemas:core:2.0:User:displayName' },
    ]);
    expect(bareRemoved.status).toBe(200);
    expect(bareRemoved.body.displayName).toBe(bare.userName);
    // A later operation of the same request still counts.
    const renamed = await d.client.patch(`/Users/${bare.id}`, [
      { op: 'remove', path: 'displayName' },
      { op: 'add', path: 'name.formatted', value: 'Formal Name' },
    ]);
    expect(renamed.body.displayName).toBe('Formal Name');

    const member = await d.user();
    expect(
      (await d.client.patch(`/Users/${member.id}`, [{ op: 'replace', path: 'active', value: false }])).body.active,
    ).toBe(false);
    const reset = await d.client.patch(`/Users/${member.id}`, [{ op: 'remove', path: 'active' }]);
    expect(reset.status).toBe(200);
    expect(reset.body.active).toBe(true);
    expect((await d.client.get(`/Users/${member.id}`)).body.active).toBe(true);
    // The same as a PUT that leaves active out.
    await d.client.patch(`/Users/${member.id}`, [{ op: 'replace', path: 'active', value: false }]);
    const put = await d.client.put(`/Users/${member.id}`, { schemas: [userUrn], userName: member.userName });
    expect(put.body.active).toBe(true);
  });

  test('remove without a path answers 400 noTarget on Users and on Groups alike', async () => {
    const d = await directory();
    const u = await d.user();
    const group = (await d.client.post('/Groups', { displayName: 'No target', members: [{ value: u.id }] })).body;
    for (const path of [`/Users/${u.id}`, `/Groups/${group.id}`])
      for (const operation of [{ op: 'remove' }, { op: 'Remove', value: [{ value: u.id }] }]) {
        const res = await d.client.patch(path, [operation]);
        expect({ path, operation, status: res.status, body: res.body }).toEqual({
          path,
          operation,
          status: 400,
          body: expect.objectContaining({ schemas: [errorUrn], status: '400', scimType: 'noTarget' }),
        });
      }
    expect((await d.client.get(`/Groups/${group.id}`)).body.members).toEqual([
      { value: u.id, display: u.displayName, $ref: expect.stringMatching(new RegExp(`/Users/${u.id}$`)) },
    ]);
  });
});

describe('a NUL in a query parameter: RFC 7644 section 3.12', () => {
  test('in attributes or excludedAttributes it is invalidValue (they are no filter); in filter, invalidFilter', async () => {
    const d = await directory();
    const u = await d.user();
    for (const query of ['attributes=user%00Name', 'excludedAttributes=emails%00', 'attributes=userName&count=1%00']) {
      for (const path of ['/Users', `/Users/${u.id}`, '/Groups']) {
        const res = await d.client.get(`${path}?${query}`);
        expect({ path, query, status: res.status, scimType: res.body.scimType }).toEqual({
          path,
          query,
          status: 400,
          scimType: 'invalidValue',
        });
      }
    }
    const filter = await d.client.get('/Users?filter=userName%20eq%20%22a%00%22');
    expect(filter.status).toBe(400);
    expect(filter.body.scimType).toBe('invalidFilter');
  });
});

describe('search from the root: RFC 7644 section 3.4.3', () => {
  test('POST /.search answers the users and the groups of the tenant in one list, each with its resourceType', async () => {
    const d = await directory();
    const other = await directory();
    await other.user();
    await other.client.post('/Groups', { displayName: 'Elsewhere' });
    const a = await d.user({ displayName: 'Crisis team' });
    const b = await d.user();
    const group = (
      await d.client.post('/Groups', { displayName: 'Crisis team', externalId: 'g-ext', members: [{ value: a.id }] })
    ).body;
    const search = (body: object) => d.client.post('/.search', { schemas: [searchUrn], ...body });

    const users = (await d.client.get('/Users')).body;
    const groups = (await d.client.get('/Groups')).body;
    const total = users.totalResults + groups.totalResults;
    expect(users.Resources.map((r: { id: string }) => r.id)).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(groups.Resources.map((r: { id: string }) => r.id)).toEqual([group.id]);

    const all = await search({});
    expect(all.status).toBe(200);
    expect(all.headers['content-type']).toMatch(/^application\/scim\+json/);
    expect(all.body).toEqual({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      totalResults: total,
      startIndex: 1,
      itemsPerPage: total,
      Resources: [...users.Resources, ...groups.Resources],
    });
    expect(all.body.Resources.map((r: { meta: { resourceType: string } }) => r.meta.resourceType)).toEqual([
      ...users.Resources.map(() => 'User'),
      'Group',
    ]);

    // An attribute only users have: groups have no value for it, so none matches (RFC 7644 section 3.4.2).
    const byUserName = await search({ filter: `userName eq "${b.userName}"` });
    expect(byUserName.body.Resources.map((r: { id: string }) => r.id)).toEqual([b.id]);
    expect(byUserName.body.totalResults).toBe(1);
    // An attribute of both: each type answers for itself (displayName compares case-insensitively).
    const byName = await search({ filter: 'displayName eq "crisis TEAM"', attributes: ['displayName'] });
    expect(byName.body.Resources).toEqual([
      { schemas: [userUrn], id: a.id, displayName: 'Crisis team' },
      { schemas: [groupUrn], id: group.id, displayName: 'Crisis team' },
    ]);
    const byExternalId = await search({ filter: 'externalId eq "g-ext"', excludedAttributes: ['members', 'meta'] });
    expect(byExternalId.body.Resources).toEqual([
      { schemas: [groupUrn], id: group.id, externalId: 'g-ext', displayName: 'Crisis team' },
    ]);
    // Paging runs over users, then groups.
    const page = await search({ startIndex: users.totalResults, count: 2, attributes: ['id'] });
    expect(page.body).toMatchObject({ totalResults: total, startIndex: users.totalResults, itemsPerPage: 2 });
    expect(page.body.Resources).toEqual([
      { schemas: [userUrn], id: users.Resources[users.totalResults - 1].id },
      { schemas: [groupUrn], id: group.id },
    ]);
    const last = await search({ startIndex: total, count: 5 });
    expect(last.body.Resources.map((r: { id: string }) => r.id)).toEqual([group.id]);
    expect((await search({ startIndex: total + 1 })).body).toMatchObject({ totalResults: total, Resources: [] });
    expect((await search({ count: 0 })).body).toMatchObject({ totalResults: total, itemsPerPage: 0, Resources: [] });
    // What the per-type searches refuse, the root refuses.
    for (const body of [{ filter: 'title co "x"' }, { filter: 'members eq "1"' }, { sortBy: 'userName' }]) {
      const res = await search(body);
      expect({ body, status: res.status, error: res.body.schemas }).toEqual({ body, status: 400, error: [errorUrn] });
    }
    expect((await search({ filter: 'title co "x"' })).body.scimType).toBe('invalidFilter');
    expect((await d.client.post('/.search', { filter: 'userName eq "x@y.z"' })).status).toBe(400);
    const anonymous = await request(ctx.app)
      .post(`${scimBase}/.search`)
      .set('content-type', 'application/scim+json')
      .send(JSON.stringify({ schemas: [searchUrn] }));
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.schemas).toEqual([errorUrn]);
  });
});
