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
