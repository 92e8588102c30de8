// Fuzzing from the schemas, valid side: for every operation, requests generated from its schemas by fast-check
// (bodies and query parameters the contract accepts, with full Unicode in free text; paths naming real things of
// the caller's tenant) never answer 5xx (501 for an operation still pending excepted), errors are the envelope,
// and every answer matches the schema the contract declares for its status — checked twice: by the app's own
// response validation (a drift answers 500) and here, independently, with Ajv.
// FUZZ_RUNS=<n> sets the generated requests per operation (default 15); a failure prints fast-check's seed.
import fc from 'fast-check';
import { createTestContext, type TestContext } from '../support/context';
import { bodyArbitrary, queryArbitrary } from './support/arbitraries';
import { operations } from './support/contract';
import { envelopeProblem, isServerFault, send, validBody, validRequest, type Req } from './support/requests';
import { responseProblem } from './support/response-schemas';
import { buildWorld, callerFor, type World } from './support/world';

const runs = Number(process.env.FUZZ_RUNS ?? 15);

let ctx: TestContext;
let world: World;

beforeAll(async () => {
  ctx = await createTestContext({ env: { TRUST_PROXY: '1' } });
  world = await buildWorld(ctx);
}, 60_000);
afterAll(() => ctx.close());

let address = 0;
const nextAddress = () => `10.200.${(address >> 8) & 255}.${address++ & 255}`;

describe('valid requests generated from the schemas, every operation', () => {
  test.each(operations().map((op) => [op.operationId, op] as const))(
    '%s: no 5xx, envelope on errors, answers match the contract',
    async (_id, op) => {
      const caller = await callerFor(ctx.services, world.A.admin.id);
      const base = validRequest(op, world.A, caller);
      await fc.assert(
        fc.asyncProperty(
          queryArbitrary(op),
          bodyArbitrary(op, base, () => validBody(op, world.A), 3),
          async (query, body) => {
            const req: Req = {
              ...base,
              query: { ...base.query, ...query },
              body,
              headers: { ...base.headers, 'x-forwarded-for': nextAddress() },
            };
            const res = await send(ctx.app, req);
            const contentType = String(res.headers['content-type'] ?? '');
            const problem = isServerFault(res.status)
              ? `${res.status} ${JSON.stringify(res.body).slice(0, 300)}`
              : (envelopeProblem(op, res) ?? responseProblem(op, res.status, contentType, res.body));
            if (problem) throw new Error(`${op.operationId} answered: ${problem}`);
          },
        ),
        { numRuns: runs, endOnFailure: true, interruptAfterTimeLimit: 20_000 },
      );
    },
  );
});
