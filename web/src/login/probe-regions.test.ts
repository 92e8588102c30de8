import { createHash } from 'node:crypto';
import { ApiFailure } from '../api/api-failure';
import type { RegionTarget } from '../config/config';
import { BRAZIL, EUROPE, NETWORK_DOWN, apiError, deferred, fakeApi, probeReply } from '../test/fake-api';
import { probeRegions } from './probe-regions';

const targets: RegionTarget[] = [
  { region: 'eu-north-1', baseUrl: EUROPE },
  { region: 'sa-east-1', baseUrl: BRAZIL },
];
const hash = createHash('sha256').update('anna@demo.test').digest('hex');
const input = { email: 'Anna@Demo.test', password: 'secret password', clientType: null, targets };

function byHost(europe: () => ReturnType<typeof probeReply>, brazil: () => ReturnType<typeof probeReply>) {
  return fakeApi(({ url }) => (url.origin === EUROPE ? europe() : brazil()));
}

test('when probing, posts the password to /probes/hash/{sha256 of the lowercased email} with the version header in every region', async () => {
  const { calls } = byHost(
    () => probeReply('eu-north-1', false),
    () => probeReply('sa-east-1', false, BRAZIL),
  );
  await probeRegions(input);
  expect(calls.map((call) => `${call.method} ${call.url.href}`).sort()).toEqual([
    `POST ${EUROPE}/core/v1/probes/hash/${hash}`,
    `POST ${BRAZIL}/core/v1/probes/hash/${hash}`,
  ]);
  for (const call of calls) {
    expect(call.body).toEqual({ password: 'secret password' });
    expect(call.headers.get('cosafe-core-api-version')).toBe('1');
  }
});

test('when probing, asks every region at once instead of one after another', async () => {
  const bothAsked = deferred();
  let asked = 0;
  const { calls } = fakeApi(async ({ url }) => {
    asked += 1;
    if (asked === 2) bothAsked.resolve();
    // Each answer waits until both questions are out: a sequential prober would stall here and fail.
    const outcome = await Promise.race([
      bothAsked.promise.then(() => 'both'),
      new Promise((done) => setTimeout(done, 300, 'alone')),
    ]);
    return outcome === 'both'
      ? probeReply(url.origin === EUROPE ? 'eu-north-1' : 'sa-east-1', true, url.origin)
      : apiError(503, 'SERVICE_UNAVAILABLE');
  });
  await expect(probeRegions(input)).resolves.toHaveLength(2);
  expect(calls).toHaveLength(2);
});

test('when the client type is academy, does not probe Brazil', async () => {
  const { calls } = byHost(
    () => probeReply('eu-north-1', true),
    () => probeReply('sa-east-1', true, BRAZIL),
  );
  const regions = await probeRegions({ ...input, clientType: 'academy' });
  expect(calls.map((call) => call.url.origin)).toEqual([EUROPE]);
  expect(regions).toEqual([{ region: 'eu-north-1', baseUrl: EUROPE }]);
});

test('when the client type is app, probes Brazil too', async () => {
  const { calls } = byHost(
    () => probeReply('eu-north-1', false),
    () => probeReply('sa-east-1', false, BRAZIL),
  );
  await probeRegions({ ...input, clientType: 'app' });
  expect(calls).toHaveLength(2);
});

test('when no region is available, answers an empty list', async () => {
  byHost(
    () => probeReply('eu-north-1', false),
    () => probeReply('sa-east-1', false, BRAZIL),
  );
  await expect(probeRegions(input)).resolves.toEqual([]);
});

test('when only Brazil is available, answers Brazil with its configured API host', async () => {
  byHost(
    () => probeReply('eu-north-1', false),
    () => probeReply('sa-east-1', true, 'https://somewhere-else.example'),
  );
  await expect(probeRegions(input)).resolves.toEqual([{ region: 'sa-east-1', baseUrl: BRAZIL }]);
});

test('when both regions are available, answers both in configuration order', async () => {
  byHost(
    () => probeReply('se-sto', true),
    () => probeReply('sa-east-1', true, BRAZIL),
  );
  await expect(probeRegions(input)).resolves.toEqual([
    { region: 'se-sto', baseUrl: EUROPE },
    { region: 'sa-east-1', baseUrl: BRAZIL },
  ]);
});

test('when every region answers 429, throws TOO_MANY_REQUESTS with the earliest unavailableUntil: a region where the account does not exist (7 minutes in Brazil) does not lengthen the wait of the one that holds it (45 s in Europe)', async () => {
  byHost(
    () => apiError(429, 'TOO_MANY_REQUESTS', { unavailableUntil: '2030-01-01T10:00:45.000Z' }),
    () => apiError(429, 'TOO_MANY_REQUESTS', { unavailableUntil: '2030-01-01T10:07:00.000Z' }),
  );
  const failure = await probeRegions(input).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(ApiFailure);
  expect(failure).toMatchObject({
    code: 'TOO_MANY_REQUESTS',
    httpStatus: 429,
    unavailableUntil: '2030-01-01T10:00:45.000Z',
  });
});

test('when every region answers 429 and only the later one names its time, throws that time rather than none', async () => {
  byHost(
    () => apiError(429, 'TOO_MANY_REQUESTS'),
    () => apiError(429, 'TOO_MANY_REQUESTS', { unavailableUntil: '2030-01-01T10:07:00.000Z' }),
  );
  await expect(probeRegions(input)).rejects.toMatchObject({ unavailableUntil: '2030-01-01T10:07:00.000Z' });
});

test('when one region is available and another rate limits, answers the available region', async () => {
  byHost(
    () => probeReply('eu-north-1', true),
    () => apiError(429, 'TOO_MANY_REQUESTS', { unavailableUntil: '2030-01-01T10:00:00.000Z' }),
  );
  await expect(probeRegions(input)).resolves.toEqual([{ region: 'eu-north-1', baseUrl: EUROPE }]);
});

test('when the region that holds the account is locked (429) and another answers that it does not know the credentials, throws the lock with its wait: "incorrect" would send her to reset a password that is fine', async () => {
  byHost(
    () => apiError(429, 'TOO_MANY_REQUESTS', { unavailableUntil: '2030-01-01T10:00:45.000Z' }),
    () => probeReply('sa-east-1', false, BRAZIL),
  );
  await expect(probeRegions(input)).rejects.toMatchObject({
    code: 'TOO_MANY_REQUESTS',
    unavailableUntil: '2030-01-01T10:00:45.000Z',
  });
});

test('when the only region asked (academy) answers 429, throws TOO_MANY_REQUESTS: every region asked refused', async () => {
  const { calls } = byHost(
    () => apiError(429, 'TOO_MANY_REQUESTS', { unavailableUntil: '2030-01-01T10:00:00.000Z' }),
    () => probeReply('sa-east-1', false, BRAZIL),
  );
  await expect(probeRegions({ ...input, clientType: 'academy' })).rejects.toMatchObject({
    code: 'TOO_MANY_REQUESTS',
    unavailableUntil: '2030-01-01T10:00:00.000Z',
  });
  expect(calls).toHaveLength(1);
});

test('when one region answers 429 and the other cannot be reached, throws NETWORK_ERROR: not every region refused', async () => {
  fakeApi((call) =>
    call.url.origin === EUROPE
      ? apiError(429, 'TOO_MANY_REQUESTS', { unavailableUntil: '2030-01-01T10:00:00.000Z' })
      : NETWORK_DOWN(call),
  );
  await expect(probeRegions(input)).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
});

test('when Brazil cannot be reached but Europe is available, answers Europe', async () => {
  fakeApi((call) => (call.url.origin === EUROPE ? probeReply('eu-north-1', true) : NETWORK_DOWN(call)));
  await expect(probeRegions(input)).resolves.toEqual([{ region: 'eu-north-1', baseUrl: EUROPE }]);
});

test('when Brazil cannot be reached and Europe is not available, throws NETWORK_ERROR rather than guessing', async () => {
  fakeApi((call) => (call.url.origin === EUROPE ? probeReply('eu-north-1', false) : NETWORK_DOWN(call)));
  await expect(probeRegions(input)).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
});

test('when a region answers an unknown region code, that answer counts as a failure', async () => {
  byHost(
    () => probeReply('moon-1', true),
    () => probeReply('sa-east-1', false, BRAZIL),
  );
  await expect(probeRegions(input)).rejects.toMatchObject({ code: 'UNEXPECTED_RESPONSE' });
});
