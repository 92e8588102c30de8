/**
 * A normal sign-in (the demo calling platform, the login form, back at the platform with a session) leaves
 * nothing in the browser's console: no error, no warning, no failed load (issue 27).
 */
import { browserSuite } from './support/browser-suite';
import { PASSWORD, expectProvenSession, fillLogin, loginPathFor } from './support/sign-in-pages';
import type { Stack } from './support/stack';

let stack: Stack;
const { visit } = browserSuite({}, (started) => (stack = started));

describe('the console of a normal sign-in', () => {
  test('a whole sign-in leaves nothing in the console', async () => {
    const { page } = await visit(loginPathFor(stack));
    const noise: string[] = [];
    page.on('console', (message) => {
      if (['error', 'warning'].includes(message.type()))
        noise.push(`${message.type()}: ${message.text()} (${message.location().url})`);
    });
    page.on('pageerror', (error) => noise.push(`pageerror: ${error.message}`));
    await page.reload();
    await fillLogin(page, 'anna@demo.test', PASSWORD);
    await expectProvenSession(stack, page, 'app', 'eu-north-1');
    expect(noise).toEqual([]);
  });
});
