// Confirmation links: opening one (GET, as mail scanners and link previews do) confirms nothing; only the
// explicit POST of the page's button records readAt, on the dispatch the link came with.
import request from 'supertest';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, insertUser, signIn, v1 } from '../support/fixtures';
import {
  dispatchesOf,
  fakeClock,
  insertExternalGroup,
  insertSenderSettings,
  only,
  outbox,
} from '../support/crisis-fixtures';

const clock = fakeClock();
let ctx: TestContext;
let tenant: number;
let token: string;
let group: number;
let messageId: number;
let emailLink: string;
let smsLink: string;

const linkIn = (body: string) => /http:\/\/127\.0\.0\.1:4000(\/c\/[A-Za-z0-9_-]{43})/.exec(body)![1];
const recipients = async () =>
  (
    await request(ctx.app)
      .get(`/core/v1/external-communications/messages/${messageId}/recipients`)
      .set(v1)
      .set('cosafe-tenant-id', String(tenant))
      .set('authorization', `Bearer ${token}`)
  ).body.data;

beforeAll(async () => {
  ctx = await createTestContext({ now: clock.now });
  tenant = await insertTenant(ctx.services);
  const user = await insertUser(ctx.services, { tenants: [tenant], permissions: only('cec.maySend') });
  token = (await signIn(ctx.services, user.id)).accessToken;
  await insertSenderSettings(ctx.services, tenant, 'Demo <School>');
  group = (
    await insertExternalGroup(ctx.services, tenant, 'Parents', [
      { name: 'Erik', email: 'erik@example.com', phone: '+46700000002' },
    ])
  ).id;
  const res = await request(ctx.app)
    .post('/core/v1/external-communications/messages')
    .set(v1)
    .set('cosafe-tenant-id', String(tenant))
    .set('authorization', `Bearer ${token}`)
    .send({
      externalCommunicationGroupIds: [group],
      text: 'Pick-up <b>moved</b> to 15:00 & gate 2',
      channel: { isEmail: true, isSms: true },
      includeConfirmationLink: true,
    });
  messageId = res.body.id;
  await ctx.services.jobs.runDueJobs();
  emailLink = linkIn((await outbox(ctx.services, 'email'))[0].body);
  smsLink = linkIn((await outbox(ctx.services, 'sms'))[0].body);
});
afterAll(() => ctx.close());

describe('GET /c/{token}', () => {
  test('shows the message and a confirm button, and does not confirm', async () => {
    const res = await request(ctx.app).get(emailLink);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toContain('Pick-up &lt;b&gt;moved&lt;/b&gt; to 15:00 &amp; gate 2');
    expect(res.text).toContain('Demo &lt;School&gt;');
    expect(res.text).toContain(`<form method="post" action="${emailLink}">`);
    expect(res.text).not.toContain('<script');
    await request(ctx.app).get(emailLink);
    await request(ctx.app).head(emailLink);
    expect((await dispatchesOf(ctx.services, 'cec', messageId)).map((d) => d.read_at)).toEqual([null, null]);
    expect((await recipients())[0].dispatches.byEmail.readAt).toBeNull();
  });

  test('is not cached, indexed, framed or given a referrer', async () => {
    const res = await request(ctx.app).get(emailLink);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['content-security-policy']).toContain("form-action 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'self'");
  });

  test.each(['/c/not-a-token', `/c/${'A'.repeat(43)}`, `/c/${'A'.repeat(44)}`])(
    '%s answers 404 with a page',
    async (path) => {
      const res = await request(ctx.app).get(path);
      expect(res.status).toBe(404);
      expect(res.text).toContain('This link is not valid');
    },
  );
});

describe('POST /c/{token}', () => {
  test('from another site, answers 403 and does not confirm', async () => {
    const res = await request(ctx.app).post(smsLink).set('origin', 'https://evil.example');
    expect(res.status).toBe(403);
    expect((await dispatchesOf(ctx.services, 'cec', messageId)).every((d) => d.read_at === null)).toBe(true);
  });

  test('with an unknown token, answers 404', async () => {
    expect((await request(ctx.app).post(`/c/${'B'.repeat(43)}`)).status).toBe(404);
  });

  test('confirms the dispatch the link came with, then redirects to the page, which says so', async () => {
    clock.set('2026-11-22T08:12:31.000Z');
    const res = await request(ctx.app).post(emailLink).set('origin', 'http://127.0.0.1:4000');
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(emailLink);
    const [recipient] = await recipients();
    expect(recipient.dispatches.byEmail).toEqual({
      sentTo: 'erik@example.com',
      status: 'sent',
      readAt: '2026-11-22T08:12:31.000Z',
    });
    expect(recipient.dispatches.bySms).toEqual({ sentTo: '+46700000002', status: 'sent', readAt: null });
    const page = await request(ctx.app).get(emailLink);
    expect(page.text).toContain('You confirmed that you have read this message.');
    expect(page.text).not.toContain('<form');
  });

  test('confirming again keeps the first time', async () => {
    clock.set('2026-11-22T09:00:00.000Z');
    expect((await request(ctx.app).post(emailLink)).status).toBe(303);
    expect((await recipients())[0].dispatches.byEmail.readAt).toBe('2026-11-22T08:12:31.000Z');
  });

  test('the SMS link confirms the SMS dispatch', async () => {
    await request(ctx.app).post(smsLink);
    expect((await recipients())[0].dispatches.bySms.readAt).toBe('2026-11-22T09:00:00.000Z');
  });

  test('the stored hash does not reveal the link', async () => {
    const rows = await ctx.services.db
      .selectFrom('dispatches')
      .select('confirmation_hash')
      .where('message_id', '=', messageId)
      .execute();
    for (const { confirmation_hash } of rows) {
      expect(confirmation_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(emailLink).not.toContain(confirmation_hash!);
    }
  });
});
