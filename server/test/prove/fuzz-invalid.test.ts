// Fuzzing from the schemas, invalid side: for every operation of the contract, requests that break it (wrong types,
// missing and unknown properties, lengths and ranges past their limits, malformed JSON, wrong content types, bad
// path, query and header values) and hostile ones (injection strings, odd Unicode, extreme numbers), each sent
// with valid credentials and tenant so the validator and the handlers are reached. None may answer 5xx (501 for an
// operation still pending excepted); every error answer is the envelope (SCIM's error shape under /scim); and the
// variants that break the contract beyond any coercion answer 4xx.
import { createTestContext, type TestContext } from '../support/context';
import { operations } from './support/contract';
import { mutationsOf } from './support/mutations';
import { envelopeProblem, isServerFault, send, validRequest } from './support/requests';
import { buildWorld, callerFor, type World } from './support/world';

let ctx: TestContext;
let world: World;

beforeAll(async () => {
  ctx = await createTestContext({ env: { TRUST_PROXY: '1' } });
  world = await buildWorld(ctx);
}, 60_000);
afterAll(() => ctx.close());

let address = 0;
/** Each request from its own client address, so the sign-in throttles do not turn everything into 429. */
const nextAddress = () => `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address++ & 255}`;

describe('invalid and hostile requests, every operation', () => {
  test('the suite covers every operation of the contract', () => {
    expect(operations().length).toBeGreaterThanOrEqual(60);
  });

  test.each(operations().map((op) => [op.operationId, op] as const))(
    '%s: never 5xx, always the envelope, broken contract → 4xx',
    async (_id, op) => {
      const caller = await callerFor(ctx.services, world.A.admin.id);
      const base = validRequest(op, world.A, caller);
      const mutations = mutationsOf(op, base);
      expect(mutations.length).toBeGreaterThan(op.parameters.length + (op.body ? 10 : 0));
      const problems: string[] = [];
      for (const m of mutations) {
        const res = await send(ctx.app, { ...m.req, headers: { ...m.req.headers, 'x-forwarded-for': nextAddress() } });
        const envelope = envelopeProblem(op, res);
        if (isServerFault(res.status))
          problems.push(`${m.name}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
        else if (envelope) problems.push(`${m.name}: ${res.status} ${envelope}`);
        else if (m.mustReject && (res.status < 400 || res.status >= 500))
          problems.push(`${m.name}: accepted with ${res.status}`);
      }
      expect(problems).toEqual([]);
    },
  );
});
