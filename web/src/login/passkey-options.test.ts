import { ApiFailure } from '../api/api-failure';
import type { RegionTarget } from '../config/config';
import { BRAZIL, EUROPE, type Reply, apiError, fakeApi } from '../test/fake-api';
import { CHALLENGE_BYTES, base64UrlToBytes, bytesToBase64Url } from './passkey-challenge';
import { joinedAuthenticationOptions } from './passkey-options';

const SWEDEN = 'http://localhost:4002';
const TARGETS: RegionTarget[] = [
  { region: 'eu-north-1', baseUrl: EUROPE },
  { region: 'se-sto', baseUrl: SWEDEN },
  { region: 'sa-east-1', baseUrl: BRAZIL },
];
const FILL: Record<string, number> = { [EUROPE]: 1, [SWEDEN]: 2, [BRAZIL]: 3 };

const challengeOf = (fill: number, bytes = CHALLENGE_BYTES) => bytesToBase64Url(new Uint8Array(bytes).fill(fill));
const options = (fill: number, extra: Record<string, unknown> = {}): Reply => ({
  status: 200,
  body: { challenge: challengeOf(fill), timeout: 300_000, rpId: 'localhost', userVerification: 'required', ...extra },
});

/** Each region answers `answer(origin)`; the calls are recorded. */
function regions(answer: (origin: string) => Reply | Promise<Reply>) {
  return fakeApi((call) => {
    expect([call.method, call.url.pathname]).toEqual(['POST', '/core/v1/passkeys/authentication-options']);
    return answer(call.url.origin);
  });
}

/** The joined challenge as the list of fills of its 32-byte segments. */
const segments = (challenge: string) => {
  const bytes = base64UrlToBytes(challenge)!;
  return Array.from({ length: bytes.length / CHALLENGE_BYTES }, (_, index) => bytes[index * CHALLENGE_BYTES]);
};

describe('joinedAuthenticationOptions (one ceremony for every region)', () => {
  test('asks every region at once and joins their challenges in the configuration order, whatever order they answer in', async () => {
    const { calls } = regions(async (origin) => {
      // Brazil answers first, Europe last.
      await new Promise((resolve) => setTimeout(resolve, 30 - FILL[origin] * 10));
      return options(FILL[origin]);
    });
    const joined = await joinedAuthenticationOptions(TARGETS, null);
    expect(calls.map((call) => call.url.origin).sort()).toEqual([BRAZIL, EUROPE, SWEDEN].sort());
    expect(segments(joined.optionsJSON.challenge)).toEqual([1, 2, 3]);
    expect(joined.regions).toEqual(TARGETS);
    expect(joined.optionsJSON).toMatchObject({ rpId: 'localhost', userVerification: 'required', timeout: 300_000 });
    expect(joined.optionsJSON).not.toHaveProperty('allowCredentials');
  });

  test('skips a region that fails, and keeps what it answered for a passkey that names it', async () => {
    regions((origin) => (origin === SWEDEN ? apiError(500, 'INTERNAL_SERVER_ERROR') : options(FILL[origin])));
    const joined = await joinedAuthenticationOptions(TARGETS, null);
    expect(segments(joined.optionsJSON.challenge)).toEqual([1, 3]);
    expect(joined.regions.map((target) => target.region)).toEqual(['eu-north-1', 'sa-east-1']);
    expect(joined.failures.get('se-sto')?.code).toBe('INTERNAL_SERVER_ERROR');
  });

  test('skips a region that cannot be reached', async () => {
    regions((origin) => {
      if (origin === EUROPE) throw new TypeError('fetch failed');
      return options(FILL[origin]);
    });
    const joined = await joinedAuthenticationOptions(TARGETS, null);
    expect(segments(joined.optionsJSON.challenge)).toEqual([2, 3]);
    expect(joined.failures.get('eu-north-1')?.code).toBe('NETWORK_ERROR');
  });

  test.each([
    ['a challenge of 16 bytes', { challenge: challengeOf(2, 16) }],
    ['a challenge of 64 bytes', { challenge: challengeOf(2, 64) }],
    ['a challenge that is not base64url', { challenge: '???' }],
    ['another relying party', { rpId: 'evil.example' }],
  ])('leaves out a region that answers %s', async (_name, extra) => {
    regions((origin) => options(FILL[origin], origin === SWEDEN ? extra : {}));
    const joined = await joinedAuthenticationOptions(TARGETS, null);
    expect(segments(joined.optionsJSON.challenge)).toEqual([1, 3]);
    expect(joined.failures.get('se-sto')?.code).toBe('UNEXPECTED_RESPONSE');
  });

  test('the ceremony may take as long as the shortest timeout any region gives', async () => {
    regions((origin) => options(FILL[origin], { timeout: origin === BRAZIL ? 120_000 : 300_000 }));
    expect((await joinedAuthenticationOptions(TARGETS, null)).optionsJSON.timeout).toBe(120_000);
  });

  test('for the academy, Brazil is not asked (spec section 9)', async () => {
    const { calls } = regions((origin) => options(FILL[origin]));
    const joined = await joinedAuthenticationOptions(TARGETS, 'academy');
    expect(calls.some((call) => call.url.origin === BRAZIL)).toBe(false);
    expect(segments(joined.optionsJSON.challenge)).toEqual([1, 2]);
  });

  test('when every region rate limits, throws TOO_MANY_REQUESTS with the longest wait', async () => {
    const until = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();
    regions((origin) => apiError(429, 'TOO_MANY_REQUESTS', { unavailableUntil: until(origin === SWEDEN ? 90 : 30) }));
    const failure = (await joinedAuthenticationOptions(TARGETS, null).catch((error: unknown) => error)) as ApiFailure;
    expect(failure).toBeInstanceOf(ApiFailure);
    expect(failure.code).toBe('TOO_MANY_REQUESTS');
    expect(Date.parse(failure.unavailableUntil!) - Date.now()).toBeGreaterThan(80_000);
  });

  test('when no region answers and not all rate limit, throws the first failure that is not a rate limit', async () => {
    regions((origin) =>
      origin === EUROPE ? apiError(429, 'TOO_MANY_REQUESTS') : apiError(503, 'SERVICE_UNAVAILABLE'),
    );
    await expect(joinedAuthenticationOptions(TARGETS, null)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
});
