import { loginPageOf, platformOf } from './platform';

describe('the platform a sign-in returns to', () => {
  test.each([
    ['https://admin.example-product.com/login', null, 'admin'],
    ['https://app.stage.example-product.com/login', null, 'app'],
    ['https://academy.dev.example-product.com/login', null, 'academy'],
    ['http://localhost:4100/admin/login', null, 'admin'],
    ['http://localhost:5176/login', null, 'academy'],
    ['https://app.example-product.com/login', 'academy', 'academy'],
    ['https://login.example.org/callback', null, null],
    ['not a url', null, null],
    [null, null, null],
  ])('%s with clientType %s is %s', (url, clientType, expected) => {
    expect(platformOf(url, clientType)).toBe(expected);
  });
});

test("an invitation's platform leads to that platform's login page on the allow-list, or nowhere", () => {
  const allowList = ['https://admin.example-product.com/login', 'https://app.example-product.com/login'];
  expect(loginPageOf('app', allowList)).toBe('https://app.example-product.com/login');
  expect(loginPageOf('admin', allowList)).toBe('https://admin.example-product.com/login');
  expect(loginPageOf('academy', allowList)).toBeNull();
});
