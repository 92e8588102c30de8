// The validator's route matchers are compiled once per pattern and options, and still match as before.
import pathToRegexpModule = require('path-to-regexp');
import { cacheRouteMatchers } from '../../src/http/route-matcher-cache';

describe('route matcher cache', () => {
  beforeAll(() => cacheRouteMatchers());

  test('one pattern with the same options compiles once; other options or patterns compile their own', () => {
    const { pathToRegexp } = pathToRegexpModule;
    const a = pathToRegexp('/core/v1/groups/:groupId', { sensitive: false, strict: false } as never);
    expect(pathToRegexp('/core/v1/groups/:groupId', { sensitive: false, strict: false } as never)).toBe(a);
    expect(pathToRegexp('/core/v1/groups/:groupId', { sensitive: true, strict: false } as never)).not.toBe(a);
    expect(pathToRegexp('/core/v1/groups/:groupId/members', { sensitive: false, strict: false } as never)).not.toBe(a);
  });

  test('a cached matcher matches like a fresh one, again and again', () => {
    const { pathToRegexp } = pathToRegexpModule;
    for (let i = 0; i < 3; i++) {
      const { regexp, keys } = pathToRegexp('/core/v1/groups/:groupId', { sensitive: false, strict: false } as never);
      expect(regexp.exec('/core/v1/groups/42')?.slice(1)).toEqual(['42']);
      expect(regexp.exec('/core/v1/groups/42/members')).toBeNull();
      expect(keys.map((k) => k.name)).toEqual(['groupId']);
    }
  });

  test('every option changes the matcher it answers; options it does not know are never cached', () => {
    const { pathToRegexp } = pathToRegexpModule;
    const path = '/core/v1/users/:userId';
    const plain = pathToRegexp(path, {} as never);
    expect(pathToRegexp(path, undefined as never)).toBe(plain);
    expect(pathToRegexp(path, { sensitive: false, strict: false, end: true, trailing: true } as never)).toBe(plain);
    const open = pathToRegexp(path, { end: false } as never);
    expect(open).not.toBe(plain);
    expect(open.regexp.test('/core/v1/users/1/sessions')).toBe(true);
    expect(plain.regexp.test('/core/v1/users/1/sessions')).toBe(false);
    expect(pathToRegexp(path, { trailing: false } as never)).not.toBe(plain);
    expect(pathToRegexp(path, { trailing: false } as never)).not.toBe(open);
    const delimited = pathToRegexp(path, { delimiter: '.' } as never);
    expect(pathToRegexp(path, { delimiter: '.' } as never)).not.toBe(delimited);
  });
});
