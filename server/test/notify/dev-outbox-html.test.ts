// The development outbox in a browser: an HTML page, newest first, grouped by recipient, links clickable and codes
// easy to read; what it shows is escaped. Tests and scripts keep the JSON (Accept: application/json, or none).
import request from 'supertest';
import { createTestContext, type TestContext } from '../support/context';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('the development outbox as a page', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
    await ctx.services.notifier.email.send({
      to: 'anna@demo.test',
      subject: 'Your code',
      body: 'Your code is 123456. It is valid for 10 minutes.',
    });
    await ctx.services.notifier.sms.send({ to: '+46700000001', body: 'Code 654321' });
    await ctx.services.notifier.email.send({
      to: 'anna@demo.test',
      subject: 'Choose a password <now>',
      body: 'Open https://login.test/set-password?userId=7&token=a%2Bb to choose one. <script>alert(1)</script>',
    });
  });
  afterAll(() => ctx.close());

  test('a browser gets HTML: per recipient, newest first, the link clickable, the code marked, nothing unescaped', async () => {
    const res = await request(ctx.app).get('/dev/outbox').set('Accept', BROWSER_ACCEPT);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const html = res.text;
    // Anna's newest message first, then her older one; her group before the phone's (her message is newer).
    const order = ['Choose a password &lt;now&gt;', 'Your code', '+46700000001'].map((text) => html.indexOf(text));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(html).toContain(
      '<a href="https://login.test/set-password?userId=7&amp;token=a%2Bb">https://login.test/set-password?userId=7&amp;token=a%2Bb</a>',
    );
    expect(html).toContain('<strong class="code">123456</strong>');
    expect(html).toContain('<strong class="code">654321</strong>');
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  test('the JSON stays for Accept: application/json and for clients that name no type', async () => {
    for (const accept of ['application/json', '*/*']) {
      const res = await request(ctx.app).get('/dev/outbox').set('Accept', accept);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body.data).toHaveLength(3);
    }
  });
});
