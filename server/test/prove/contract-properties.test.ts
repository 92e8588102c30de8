// The contract says exactly what the server does, in both directions, checked with properties over every
// operation against a region with a signed-in administrator, a tenant and its SCIM api key (PGlite, or PostgreSQL
// when TEST_DATABASE_URL is set):
// - requests fast-check generates from the contract's schemas are not refused by its validation (a 400 that names
//   a part of the request the contract allowed), and
// - requests that break the contract beyond any coercion are refused with a 4xx;
// and every answer to either has a status the operation declares itself (not only through `default`), no 5xx, the
// declared media type, the headers the contract marks required, and a body of the declared schema (Ajv,
// independently of the app's own response validation).
// Bounded: CONTRACT_RUNS generated requests (default 3) and at most CONTRACT_MUTATIONS (default 3) breaking ones
// per operation, a few hundred requests in all. A failure prints every finding; fast-check prints its seed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import type request from 'supertest';
import { createTestContext, type TestContext } from '../support/context';
import { bodyArbitrary, queryArbitrary } from './support/arbitraries';
import { bundle, deref, operations, type Operation } from './support/contract';
import { mutationsOf } from './support/mutations';
import { isServerFault, send, validBody, validRequest, type Req } from './support/requests';
import { responseProblem } from './support/response-schemas';
import { buildWorld, callerFor, type World } from './support/world';

const runs = Number(process.env.CONTRACT_RUNS ?? 3);
const mutationsPerOperation = Number(process.env.CONTRACT_MUTATIONS ?? 3);
const seed = Number(process.env.CONTRACT_SEED ?? 20261126);

let ctx: TestContext;
let world: World;
beforeAll(async () => {
  ctx = await createTestContext({ env: { TRUST_PROXY: '1' } });
  world = await buildWorld(ctx);
}, 60_000);
afterAll(() => ctx.close());

let address = 0;
/** Each request from its own client address, so that the sign-in throttles do not answer everything. */
const nextAddress = () => `10.77.${(address >> 8) & 255}.${address++ & 255}`;

/** The response headers the contract marks required, per operation and status. */
function requiredHeaders(op: Operation, status: number): string[] {
  const item = bundle().paths[op.path][op.method];
  const response = deref<any>(item.responses[String(status)]);
  return Object.entries<any>(response?.headers ?? {})
    .filter(([, h]) => deref<any>(h).required)
    .map(([name]) => name.toLowerCase());
}

/**
 * `default` declares only the statuses its description names: any operation's middleware answers (a body too large,
 * an unsupported media type, a busy service), by code in the platform's envelope, by status in SCIM's.
 */
function namedByDefault(op: Operation, res: request.Response): boolean {
  const item = bundle().paths[op.path][op.method];
  const description = String(deref<any>(item.responses.default)?.description ?? '');
  const code = (res.body as any)?.error?.code;
  return (typeof code === 'string' && description.includes(code)) || description.includes(`\`${res.status}\``);
}

/** What is wrong with an answer whatever the request: status, media type, headers, body. */
function answerProblem(op: Operation, res: request.Response): string | null {
  if (isServerFault(res.status)) return `${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
  const declared =
    String(res.status) in op.responses
      ? op.responses[String(res.status)]
      : namedByDefault(op, res)
        ? op.responses.default
        : undefined;
  if (declared === undefined) return `status ${res.status} is not declared (only through default)`;
  const type = String(res.headers['content-type'] ?? '');
  if (declared && !type.startsWith(declared.contentType))
    return `content-type ${type} for ${res.status}, declared ${declared.contentType}`;
  const missing = requiredHeaders(op, res.status).filter((h) => res.headers[h] === undefined);
  if (missing.length) return `${res.status} without the headers ${missing.join(', ')}`;
  const schema = responseProblem(op, res.status, type, res.body);
  return schema ? `${res.status} body: ${schema}` : null;
}

/** A 400 whose cause is the contract's validation of the request (rather than a rule of the service). */
function refusedByValidation(res: request.Response): string | null {
  if (res.status !== 400) return null;
  const body = res.body as any;
  if (Array.isArray(body?.error?.issues) && body.error.issues.some((i: any) => /^must /.test(i.message)))
    return JSON.stringify(body.error.issues).slice(0, 300);
  if (typeof body?.detail === 'string' && /^(body|query|path|header) \S*: must /.test(body.detail))
    return body.detail.slice(0, 300);
  return null;
}

/** The contract's introduction excludes U+0000 from every string of a request (tested on its own elsewhere). */
const withoutNul = <T>(arbitrary: fc.Arbitrary<T>) =>
  arbitrary.filter((v) => !JSON.stringify(v ?? null).includes('\\u0000'));

const findings: string[] = [];
afterAll(() => {
  if (findings.length) process.stdout.write(`contract findings:\n${findings.join('\n')}\n`);
});

describe('every operation does what the contract says, both directions', () => {
  test.each(operations().map((op) => [op.operationId, op] as const))('%s', async (_id, op) => {
    const caller = await callerFor(ctx.services, world.A.admin.id);
    const base = validRequest(op, world.A, caller);
    const problems: string[] = [];
    await fc.assert(
      fc.asyncProperty(
        withoutNul(queryArbitrary(op)),
        withoutNul(bodyArbitrary(op, base, () => validBody(op, world.A), 2)),
        async (query, body) => {
          const req: Req = {
            ...base,
            query: { ...base.query, ...query },
            body,
            headers: { ...base.headers, 'x-forwarded-for': nextAddress() },
          };
          const res = await send(ctx.app, req);
          const problem = answerProblem(op, res) ?? refusedByValidation(res);
          if (problem) problems.push(`valid ${JSON.stringify({ query, body }).slice(0, 200)} → ${problem}`);
        },
      ),
      { numRuns: runs, seed, endOnFailure: true },
    );
    // The breaking variants, a bounded and seeded choice among all of them.
    const breaking = mutationsOf(op, base).filter((m) => m.mustReject);
    const chosen = fc.sample(
      fc.shuffledSubarray(breaking, {
        minLength: Math.min(mutationsPerOperation, breaking.length),
        maxLength: Math.min(mutationsPerOperation, breaking.length),
      }),
      { numRuns: 1, seed },
    )[0];
    for (const m of chosen) {
      const res = await send(ctx.app, { ...m.req, headers: { ...m.req.headers, 'x-forwarded-for': nextAddress() } });
      const problem = res.status < 400 || res.status >= 500 ? `accepted with ${res.status}` : answerProblem(op, res);
      if (problem) problems.push(`invalid (${m.name}) → ${problem}`);
    }
    findings.push(...problems.map((p) => `${op.operationId}: ${p}`));
    expect(problems).toEqual([]);
  });
});

/** Every string schema reachable from `schema` (properties, items, anyOf/oneOf/allOf), with where it is. */
function stringSchemas(schema: any, at: string, out: { at: string; schema: any }[] = [], depth = 0): typeof out {
  const s = deref<any>(schema);
  if (!s || typeof s !== 'object' || depth > 8) return out;
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (types.includes('string') && s.enum === undefined && s.const === undefined) out.push({ at, schema: s });
  for (const [key, sub] of Object.entries<any>(s.properties ?? {})) stringSchemas(sub, `${at}/${key}`, out, depth + 1);
  if (s.items) stringSchemas(s.items, `${at}/[]`, out, depth + 1);
  for (const member of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])])
    stringSchemas(member, at, out, depth + 1);
  return out;
}

/** The request validator's own Ajv setup: JSON Schema 2020-12, formats as express-openapi-validator checks them. */
const requestAjv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats(requestAjv, { mode: 'fast' });
const requestSchema = (schema: unknown) => requestAjv.compile(deref(JSON.parse(JSON.stringify(schema))));
const scimOperation = (id: string) => operations().find((op) => op.operationId === id)!;

describe('the SCIM contract says what the server accepts and requires', () => {
  test('every example a SCIM search or PATCH body offers (its own, then its schema’s) is accepted by its operation', async () => {
    const ids = ['searchScimUsers', 'searchScimGroups', 'searchScimResources', 'patchScimUser', 'patchScimGroup'];
    const answers: string[] = [];
    for (const id of ids) {
      const op = scimOperation(id);
      expect({ id, found: Boolean(op?.body?.examples.length) }).toEqual({ id, found: true });
      const base = validRequest(op, world.A, await callerFor(ctx.services, world.A.admin.id));
      for (const example of op.body!.examples) {
        const res = await send(ctx.app, { ...base, body: example });
        answers.push(`${id} ${JSON.stringify(example).slice(0, 120)} → ${res.status} ${answerProblem(op, res) ?? ''}`);
      }
    }
    expect(answers.filter((a) => !/ → 200 $/.test(a))).toEqual([]);
    // The groups search offers a groups filter first, and nothing of users (it was a users filter).
    expect(JSON.stringify(scimOperation('searchScimGroups').body!.examples)).not.toMatch(/userName/);
  });

  test('a remove without a path breaks the contract, and both PATCH operations answer it 400 noTarget', async () => {
    for (const id of ['patchScimUser', 'patchScimGroup']) {
      const op = scimOperation(id);
      const validate = requestSchema(op.body!.schema);
      const pathless = { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'remove' }] };
      expect({ id, valid: validate(pathless) }).toEqual({ id, valid: false });
      expect(validate({ ...pathless, Operations: [{ op: 'Remove', path: 'title' }] })).toBe(true);
      const base = validRequest(op, world.A, await callerFor(ctx.services, world.A.admin.id));
      const res = await send(ctx.app, { ...base, body: pathless });
      expect({ id, status: res.status, scimType: res.body.scimType }).toEqual({
        id,
        status: 400,
        scimType: 'noTarget',
      });
    }
  });

  test('userName is an email in the contract, and what the contract calls an email the server takes as one', async () => {
    const op = scimOperation('createScimUser');
    const userName = op.body!.schema.properties.userName;
    expect(userName.format).toBe('email');
    const validate = requestSchema(userName);
    // What the server refuses as no address, the contract refuses too.
    for (const text of ['not-an-email', 'a@b', 'a b@c.se', '@c.se', 'a@.se', 'a@b.', 'a@@b.se', 'a@b.se\u0000'])
      expect({ text, valid: validate(text) }).toEqual({ text, valid: false });
    // And every address the contract accepts (as a fuzzer following `format: email` makes them) is created.
    const addresses = fc
      .sample(fc.emailAddress(), { numRuns: 30, seed })
      .filter((a) => validate(a))
      .slice(0, 8);
    expect(addresses.length).toBeGreaterThan(3);
    const base = validRequest(op, world.A, await callerFor(ctx.services, world.A.admin.id));
    const created: string[] = [];
    for (const address of addresses) {
      const body = { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: address };
      const res = await send(ctx.app, { ...base, body });
      created.push(
        `${address} → ${res.status === 201 || res.status === 409 ? 'ok' : `${res.status} ${JSON.stringify(res.body)}`}`,
      );
    }
    expect(created.filter((c) => !c.endsWith(' → ok'))).toEqual([]);
  });

  test('no string of a SCIM request admits a NUL, in the schemas as in the server', () => {
    const admitted: string[] = [];
    for (const op of operations().filter((o) => o.path.startsWith('/scim/'))) {
      const strings = [
        ...op.parameters.flatMap((p) => stringSchemas(p.schema, `${p.in} ${p.name}`)),
        ...(op.body ? stringSchemas(op.body.schema, 'body') : []),
      ];
      for (const { at, schema } of strings) {
        const refuses = typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test('a\u0000b');
        if (!refuses) admitted.push(`${op.operationId} ${at}`);
      }
    }
    expect(admitted).toEqual([]);
  });

  test('/Schemas publishes the $ref of a group member, and a group answers it as the URI of the member', async () => {
    const scim = (method: Req['method'], path: string, body?: unknown) =>
      send(ctx.app, {
        method,
        path: `/core/v1/scim/v2${path}`,
        query: {},
        headers: { authorization: `Bearer ${world.A.apiKey.key}` },
        ...(body === undefined ? {} : { body, contentType: 'application/scim+json' }),
      });
    const group = (await scim('get', '/Schemas/urn:ietf:params:scim:schemas:core:2.0:Group')).body;
    const members = group.attributes.find((a: { name: string }) => a.name === 'members');
    expect(members.subAttributes.find((s: { name: string }) => s.name === '$ref')).toMatchObject({
      type: 'reference',
      referenceTypes: ['User'],
      multiValued: false,
    });
    // A group of its own: the properties above may have changed the world's groups.
    const user = (await scim('post', '/Users', { userName: `member-ref-${Date.now()}@example.test` })).body;
    const created = await scim('post', '/Groups', {
      displayName: `Member ref ${user.id}`,
      members: [{ value: user.id }],
    });
    expect(created.status).toBe(201);
    const answered = (await scim('get', `/Groups/${created.body.id}`)).body.members;
    expect(answered).toEqual([expect.objectContaining({ value: user.id, $ref: expect.any(String) })]);
    const ref = new URL(answered[0].$ref);
    expect(ref.pathname).toBe(`/core/v1/scim/v2/Users/${user.id}`);
    expect((await scim('get', ref.pathname.replace('/core/v1/scim/v2', ''))).status).toBe(200);
  });
});

describe('the document to generate clients from', () => {
  test('GET /core/v1/openapi.json serves the bundled contract, self-contained, with the headers of every answer', async () => {
    const root = join(__dirname, '..', '..', '..');
    const res = await send(ctx.app, { method: 'get', path: '/core/v1/openapi.json', query: {}, headers: {} });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual(JSON.parse(readFileSync(join(root, 'generated', 'core-api.bundle.json'), 'utf8')));
    // Self-contained: every $ref and every discriminator mapping points into the document (a generator reading the
    // multi-file source resolved createSession's mappings to relative files and typed its body as never).
    const outside: string[] = [];
    (function walk(node: unknown, at: string) {
      if (!node || typeof node !== 'object') return;
      const n = node as Record<string, any>;
      const targets = [
        ...(typeof n.$ref === 'string' ? [n.$ref] : []),
        ...(n.discriminator?.mapping ? Object.values<string>(n.discriminator.mapping) : []),
      ];
      for (const target of targets)
        if (!target.startsWith('#/') || deref({ $ref: target }) === undefined) outside.push(`${at}: ${target}`);
      for (const [key, value] of Object.entries(n)) walk(value, `${at}/${key}`);
    })(res.body, '');
    expect(outside).toEqual([]);
    expect(JSON.stringify(res.body.components.schemas.CreateSessionRequest.discriminator)).toContain(
      '#/components/schemas/',
    );
    // The headers every other answer carries.
    const other = await send(ctx.app, { method: 'get', path: '/core/v1/tenants', query: {}, headers: {} });
    for (const name of [
      'content-security-policy',
      'strict-transport-security',
      'x-content-type-options',
      'x-frame-options',
      'referrer-policy',
      'x-request-id',
    ])
      expect({ name, present: res.headers[name] !== undefined && other.headers[name] !== undefined }).toEqual({
        name,
        present: true,
      });
    // Outside the contract's operations, and said so; the README names the file to generate from.
    expect(Object.keys(bundle().paths)).not.toContain('/openapi.json');
    expect(bundle().info.description).toContain('/core/v1/openapi.json');
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toContain('generated/core-api.bundle.json');
    expect(readme).toMatch(/generat\w+ (a )?client/i);
  });
});
