// Where an identity provider may send the browser back to: only the sign-in app's pages the region's allow-list
// names, in their canonical form, with nothing that a lenient parser could read another way.
import { isAllowedSsoRedirect } from '../../src/modules/sso/redirect-uri';

const page = 'http://127.0.0.1:5173/login/sso';
const below = 'http://127.0.0.1:5173/app/';
const allowList = [page, below];
const allowed = (candidate: string) => isAllowedSsoRedirect(candidate, allowList);

/** A page below `below` exactly `length` characters long. */
const pageOfLength = (length: number) => below + 'a'.repeat(length - below.length);

describe('the redirect allow-list', () => {
  test('an entry without a trailing slash allows exactly itself', () => {
    expect(allowed(page)).toBe(true);
    expect(allowed(`${page}/`)).toBe(false);
    expect(allowed(`${page}/deeper`)).toBe(false);
    expect(allowed(`${page}x`)).toBe(false);
    expect(allowed('http://127.0.0.1:5173/login')).toBe(false);
  });

  test('attack: an exact entry used as a prefix to reach a page beside it (…/login/sso-takeover)', () => {
    expect(allowed(`${page}-takeover`)).toBe(false);
  });

  test('attack: an exact entry used as a prefix to reach a page below it (…/login/sso/callback)', () => {
    expect(allowed(`${page}/callback`)).toBe(false);
  });

  test('an entry ending in a slash allows every page below it', () => {
    expect(allowed(below)).toBe(true);
    expect(allowed(`${below}login`)).toBe(true);
    expect(allowed(`${below}login/sso`)).toBe(true);
    expect(allowed('http://127.0.0.1:5173/application')).toBe(false);
    expect(allowed('http://127.0.0.1:5173/other/app/')).toBe(false);
  });
});

describe('candidates refused before the allow-list is read', () => {
  test('up to 2048 characters are allowed, one more is not', () => {
    expect(allowed(pageOfLength(2047))).toBe(true);
    expect(allowed(pageOfLength(2048))).toBe(true);
    expect(allowed(pageOfLength(2049))).toBe(false);
    expect(allowed(pageOfLength(4096))).toBe(false);
  });

  test.each([
    ['a space', ' '],
    ['a tab', '\t'],
    ['a control character', '\u0001'],
    ['DEL', '\u007f'],
    ['a non-ASCII letter', 'é'],
    ['a zero-width space', '\u200b'],
  ])('a candidate starting with %s is refused', (_, first) => {
    expect(allowed(first + page)).toBe(false);
    expect(allowed(first + below + 'login')).toBe(false);
  });

  test.each([
    ['a space', ' '],
    ['a newline', '\n'],
    ['a non-ASCII letter', 'é'],
  ])('a candidate holding or ending in %s is refused', (_, character) => {
    expect(allowed(`${below}log${character}in`)).toBe(false);
    expect(allowed(below + character)).toBe(false);
  });

  test.each([
    ['.', `${below}./login`],
    ['..', `${below}../login/sso`],
    ['.. at the end', `${below}login/..`],
    ['encoded ..', `${below}%2e%2e/login/sso`],
  ])('a path with the dot segment %s is refused, even where it would resolve to an allowed page', (_, candidate) => {
    expect(allowed(candidate)).toBe(false);
  });

  test('a dot inside a segment is no dot segment: such a page is allowed', () => {
    expect(allowed(`${below}sign-in.html`)).toBe(true);
    expect(allowed(`${below}v1.2/login`)).toBe(true);
    expect(allowed(`${below}.well-known/sso`)).toBe(true);
  });

  test.each([
    ['a backslash', 'http://127.0.0.1:5173/app\\login'],
    ['credentials', 'http://user:pass@127.0.0.1:5173/app/login'],
    ['a query', `${below}login?next=https://evil.test`],
    ['a fragment', `${below}login#x`],
    ['an upper-case scheme', 'HTTP://127.0.0.1:5173/app/login'],
    ['another scheme', 'javascript://127.0.0.1:5173/app/'],
    ['no URL at all', 'app/login'],
  ])('a candidate with %s is refused', (_, candidate) => {
    expect(allowed(candidate)).toBe(false);
  });

  test.each(['ftp://127.0.0.1/login/sso', 'com.example.app://login/sso', 'file:///login/sso'])(
    'a page of another scheme than http(s), %s, is refused even where the list names it',
    (candidate) => {
      expect(new URL(candidate).href).toBe(candidate);
      expect(isAllowedSsoRedirect(candidate, [candidate])).toBe(false);
    },
  );

  test('a non-canonical candidate is refused, its canonical form is not', () => {
    expect(allowed('http://127.0.0.1:5173')).toBe(false);
    expect(isAllowedSsoRedirect('http://127.0.0.1:5173/', ['http://127.0.0.1:5173/'])).toBe(true);
  });
});
