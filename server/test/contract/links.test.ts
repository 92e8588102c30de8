// OpenAPI links chain the operation that creates (or reads) a resource to those that use it, so a stateful client
// or test generator can follow them: each names an operation of the contract and only parameters it has, from the
// answer's body or the request's headers; and followed against the server, each reaches the resource.
import { loadBundle } from '../../src/http/spec';
import { createSsoTestContext, ssoTenant } from '../support/enterprise-fixtures';
import { scim, scimKey } from '../support/scim-client';

const doc = loadBundle() as any;
const deref = (v: any) =>
  v?.$ref
    ? v.$ref
        .replace(/^#\//, '')
        .split('/')
        .reduce((n: any, k: string) => n?.[k], doc)
    : v;
const methods = ['get', 'put', 'post', 'patch', 'delete'];
const operations = new Map<string, { path: string; method: string; params: Set<string> }>();
for (const [path, item] of Object.entries<any>(doc.paths))
  for (const method of methods)
    if (item[method])
      operations.set(item[method].operationId, {
        path,
        method,
        params: new Set([...(item.parameters ?? []), ...(item[method].parameters ?? [])].map((p) => deref(p).name)),
      });
const links = [...operations.entries()].flatMap(([from, op]) =>
  Object.entries<any>(doc.paths[op.path][op.method].responses).flatMap(([status, r]) =>
    Object.entries<any>(deref(r).links ?? {}).map(([name, link]) => ({ from, status, name, link })),
  ),
);

test('links connect the creating operations of sessions, users, groups, contacts, api keys, alarms, messages, passkeys and SCIM', () => {
  expect(new Set(links.map((l) => l.from))).toEqual(
    new Set([
      'createSession',
      'getUser',
      'getGroup',
      'createApiKey',
      'createContact',
      'createPersonalAlarm',
      'sendCecMessage',
      'createPasskey',
      'createScimUser',
      'createScimGroup',
    ]),
  );
});

test.each(links.map((l) => [`${l.from} ${l.status} → ${l.link.operationId}`, l] as const))('%s', (_name, l) => {
  const target = operations.get(l.link.operationId);
  expect(target).toBeDefined();
  for (const [param, expression] of Object.entries<string>(l.link.parameters)) {
    expect({ param, known: target!.params.has(param) }).toEqual({ param, known: true });
    expect(expression).toMatch(/^\$(response\.body#\/[A-Za-z]+|request\.header\.[a-z-]+)$/);
  }
  // Every path parameter of the target is supplied.
  const pathParams = [...target!.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  for (const p of pathParams) expect(Object.keys(l.link.parameters)).toContain(p);
});

test('followed against the server, the SCIM links reach the resource just created', async () => {
  const ctx = await createSsoTestContext();
  try {
    const tenant = await ssoTenant(ctx.services, 'oidc');
    const client = scim(ctx, await scimKey(ctx, tenant));
    for (const [from, body] of [
      ['createScimUser', { userName: `linked@${tenant.domain}` }],
      ['createScimGroup', { displayName: 'Linked' }],
    ] as const) {
      const op = operations.get(from)!;
      const created = await client.post(op.path.replace('/scim/v2', ''), body);
      expect(created.status).toBe(201);
      const get = links.find((l) => l.from === from && l.link.operationId.startsWith('get'))!;
      const target = operations.get(get.link.operationId)!;
      const path = target.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
        const pointer = String(get.link.parameters[name]).replace('$response.body#/', '');
        return encodeURIComponent(created.body[pointer]);
      });
      const read = await client.get(path.replace('/scim/v2', ''));
      expect(read.status).toBe(200);
      expect(read.body.id).toBe(created.body.id);
    }
  } finally {
    await ctx.close();
  }
});
