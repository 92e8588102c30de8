import { assertAllowListEntry } from '../config/allow-list-entry';
import { isAllowedRedirect } from './redirect-allow-list';

const allowList = [
  'https://admin.example-product.com/login',
  'https://app.example-product.com/login',
  'https://academy.stage.example-product.com/login',
  'http://localhost:5174/login',
];

describe('isAllowedRedirect', () => {
  test.each([
    ['the admin login page', 'https://admin.example-product.com/login'],
    ['the app login page', 'https://app.example-product.com/login'],
    ['the stage academy login page', 'https://academy.stage.example-product.com/login'],
    ['a development stand-in', 'http://localhost:5174/login'],
    ['an allowed page with a query', 'https://app.example-product.com/login?tenant=4&lang=sv'],
    ['an allowed page with an encoded query value', 'http://localhost:5174/login?next=%2Fgroups%3Fid%3D1'],
    ['an allowed page with a fragment', 'https://admin.example-product.com/login#section'],
  ])('when the redirect is %s, accepts it', (_name, url) => {
    expect(isAllowedRedirect(url, allowList)).toBe(true);
  });

  test.each([
    ['missing', null],
    ['undefined', undefined],
    ['empty', ''],
    ['not a string', 42],
    ['relative', '/login'],
    ['protocol-relative', '//app.example-product.com/login'],
    ['a javascript: URL', 'javascript:alert(1)//https://app.example-product.com/login'],
    ['a data: URL', 'data:text/html,<script>alert(1)</script>'],
    ['another scheme (ftp)', 'ftp://app.example-product.com/login'],
    ['downgraded to http', 'http://app.example-product.com/login'],
    ['https without slashes', 'https:app.example-product.com/login'],
    ['with userinfo', 'https://user:secret@app.example-product.com/login'],
    ['with a user name only', 'https://user@app.example-product.com/login'],
    ['an allowed host used as userinfo', 'https://app.example-product.com@evil.example/login'],
    ['a look-alike host with a suffix', 'https://app.example-product.com.evil.example/login'],
    ['a look-alike host with a prefix', 'https://myapp.example-product.com/login'],
    ['a look-alike domain', 'https://app.example-product.co/login'],
    ['a hyphenated look-alike', 'https://app-example-product.com/login'],
    ['a Cyrillic look-alike host', 'https://аpp.example-product.com/login'],
    ['a punycode host', 'https://xn--pp-8kc.example-product.com/login'],
    ['a trailing-dot host', 'https://app.example-product.com./login'],
    ['an upper-case host', 'https://APP.example-product.com/login'],
    ['another port', 'https://app.example-product.com:8443/login'],
    ['the default port written out', 'https://app.example-product.com:443/login'],
    ['another development port', 'http://localhost:5177/login'],
    ['127.0.0.1 for localhost', 'http://127.0.0.1:5174/login'],
    ['another path', 'https://app.example-product.com/logout'],
    ['the site root', 'https://app.example-product.com/'],
    ['no path', 'https://app.example-product.com'],
    ['the path with a trailing slash', 'https://app.example-product.com/login/'],
    ['a longer path', 'https://app.example-product.com/loginx'],
    ['a sub-path', 'https://app.example-product.com/login/callback'],
    ['a dot-segment escape', 'https://app.example-product.com/login/../admin'],
    ['an upper-case path', 'https://app.example-product.com/LOGIN'],
    ['a path parameter', 'https://app.example-product.com/login;jsessionid=1'],
    ['the allowed URL inside another URL path', 'https://evil.example/https://app.example-product.com/login'],
    ['the allowed URL inside a query', 'https://evil.example/?r=https://app.example-product.com/login'],
    ['an encoded letter in the path', 'https://app.example-product.com/%6cogin'],
    ['an encoded slash escape', 'https://app.example-product.com/login%2F..%2Fadmin'],
    ['an encoded question mark', 'https://app.example-product.com/login%3Fx=1'],
    ['an encoded dot in the host', 'https://app%2Eexample-product.com/login'],
    ['an encoded @ before another host', 'https://app.example-product.com%40evil.example/login'],
    ['encoded scheme slashes', 'https:%2F%2Fapp.example-product.com/login'],
    ['a backslash before another host', 'https://app.example-product.com\\@evil.example/login'],
    ['backslashes for slashes', 'https:\\\\app.example-product.com\\login'],
    ['a backslash in the query', 'https://app.example-product.com/login?x=\\evil'],
    ['a leading space', ' https://app.example-product.com/login'],
    ['a trailing space', 'https://app.example-product.com/login '],
    ['a tab inside the scheme', 'ht\ttps://app.example-product.com/login'],
    ['a newline inside the path', 'https://app.example-product.com/lo\ngin'],
    ['a null byte', 'https://app.example-product.com/login\u0000'],
    ['a non-breaking space in the query', 'https://app.example-product.com/login?x=\u00a0'],
    ['far too long', `https://app.example-product.com/login?pad=${'a'.repeat(2100)}`],
  ])('when the redirect is %s, rejects it', (_name, url) => {
    expect(isAllowedRedirect(url, allowList)).toBe(false);
  });

  test('when the allow-list is empty, rejects everything', () => {
    expect(isAllowedRedirect('https://app.example-product.com/login', [])).toBe(false);
  });
});

describe('assertAllowListEntry', () => {
  test('when the entry is a plain login page URL, returns it', () => {
    expect(assertAllowListEntry('https://app.example-product.com/login')).toBe('https://app.example-product.com/login');
  });

  test.each([
    ['not a URL', 'app.example-product.com/login'],
    ['with a query', 'https://app.example-product.com/login?x=1'],
    ['with a fragment', 'https://app.example-product.com/login#x'],
    ['with userinfo', 'https://u:p@app.example-product.com/login'],
    ['not canonical (upper case)', 'https://APP.example-product.com/login'],
    ['not canonical (no path)', 'https://app.example-product.com'],
    ['another scheme', 'ftp://app.example-product.com/login'],
  ])('when the entry is %s, throws', (_name, entry) => {
    expect(() => assertAllowListEntry(entry)).toThrow();
  });
});
