// The coarse device the account page shows for a session, from the user agent its sign-in sent: a kind, a browser
// family and a system family, never a version.
import { deviceOf } from '../../src/modules/account/device';

test.each([
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
    { type: 'desktop', browser: 'Firefox', os: 'Windows' },
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
    { type: 'mobile', browser: 'Safari', os: 'iOS' },
  ],
  [
    'Mozilla/5.0 (iPad; CPU OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
    { type: 'tablet', browser: 'Safari', os: 'iOS' },
  ],
  [
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    { type: 'mobile', browser: 'Chrome', os: 'Android' },
  ],
  [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
    { type: 'desktop', browser: 'Microsoft Edge', os: 'macOS' },
  ],
  ['okhttp/4.12.0', { type: 'app', browser: null, os: null }],
])('%s is %o', (userAgent, device) => {
  expect(deviceOf(userAgent)).toEqual(device);
});

test('no user agent is an unknown device', () => {
  expect(deviceOf(null)).toEqual({ type: 'unknown', browser: null, os: null });
});

test('names are cut to the contract’s 64 characters', () => {
  const device = deviceOf(`${'X'.repeat(100)}/1.0 (Windows NT 10.0)`);
  expect(device).toEqual({ type: 'desktop', browser: 'X'.repeat(64), os: 'Windows' });
});
