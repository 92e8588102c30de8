import {
  CHALLENGE_BYTES,
  base64UrlToBytes,
  bytesToBase64Url,
  challengeBytes,
  concatChallenges,
  parseUserHandle,
} from './passkey-challenge';

/** 32 bytes, each `fill` (a challenge whose segment is easy to recognise). */
const challengeOf = (fill: number) => bytesToBase64Url(new Uint8Array(CHALLENGE_BYTES).fill(fill));
const handleOf = (text: string) => bytesToBase64Url(new TextEncoder().encode(text));

describe('base64url', () => {
  test('round-trips every byte value, without padding or + and /', () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, index) => index);
    const text = bytesToBase64Url(bytes);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Array.from(base64UrlToBytes(text)!)).toEqual(Array.from(bytes));
  });

  test('reads padded text too, and refuses what is not base64url', () => {
    expect(Array.from(base64UrlToBytes('_-8=')!)).toEqual([255, 239]);
    for (const bad of ['a+b/', 'abc!', 'a', 'ab=c']) expect(base64UrlToBytes(bad)).toBeNull();
  });
});

describe('concatChallenges', () => {
  test('joins the decoded challenges in the order given, 32 bytes each', () => {
    const joined = base64UrlToBytes(concatChallenges([challengeOf(1), challengeOf(2), challengeOf(3)]))!;
    expect(joined).toHaveLength(3 * CHALLENGE_BYTES);
    expect([joined[0], joined[31], joined[32], joined[63], joined[64], joined[95]]).toEqual([1, 1, 2, 2, 3, 3]);
  });

  test('one region: the joined challenge is that region challenge', () => {
    expect(concatChallenges([challengeOf(7)])).toBe(challengeOf(7));
  });

  test('the order is the order given: Europe then Brazil is not Brazil then Europe', () => {
    expect(concatChallenges([challengeOf(1), challengeOf(2)])).not.toBe(
      concatChallenges([challengeOf(2), challengeOf(1)]),
    );
  });

  test.each([
    ['31 bytes', bytesToBase64Url(new Uint8Array(31))],
    ['33 bytes', bytesToBase64Url(new Uint8Array(33))],
    ['64 bytes (two challenges in one)', bytesToBase64Url(new Uint8Array(64))],
    ['not base64url', 'not a challenge!'],
  ])('refuses a challenge of %s', (_name, bad) => {
    expect(challengeBytes(bad)).toBeNull();
    expect(() => concatChallenges([challengeOf(1), bad])).toThrow(/Challenge 2 is not 32 bytes/);
  });

  test('refuses to join nothing', () => {
    expect(() => concatChallenges([])).toThrow();
  });
});

describe('parseUserHandle', () => {
  test('reads <regionCode>:<userId> from the UTF-8 user handle', () => {
    expect(parseUserHandle(handleOf('sa-east-1:42'))).toEqual({ region: 'sa-east-1', userId: '42' });
    expect(parseUserHandle(handleOf('eu-north-1:0b6f2d4e-8a51-4c55-9a8e-3f3f6a0d2c11'))).toEqual({
      region: 'eu-north-1',
      userId: '0b6f2d4e-8a51-4c55-9a8e-3f3f6a0d2c11',
    });
  });

  test('splits at the first colon only', () => {
    expect(parseUserHandle(handleOf('se-sto:a:b'))).toEqual({ region: 'se-sto', userId: 'a:b' });
  });

  test.each([
    ['no handle', undefined],
    ['an empty handle', ''],
    ['no colon', handleOf('eu-north-1')],
    ['an unknown region', handleOf('us-east-1:42')],
    ['a region in another case', handleOf('EU-NORTH-1:42')],
    ['no user id', handleOf('eu-north-1:')],
    ['a user id with a space', handleOf('eu-north-1:4 2')],
    ['random bytes (a passkey of another site or app)', bytesToBase64Url(Uint8Array.from([0xff, 0xfe, 0x3a, 0x00]))],
    ['more than 64 bytes', handleOf(`eu-north-1:${'x'.repeat(60)}`)],
    ['text that is not base64url', 'eu-north-1:42'],
  ])('answers null for %s', (_name, handle) => {
    expect(parseUserHandle(handle)).toBeNull();
  });
});
