// Sign-in messages as people receive them: through nodemailer to an SMTP server and through the SMS provider
// API, in the user's language (or the sign-in app's, sent as Accept-Language, for a user who has chosen none).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import request from 'supertest';
import { emailHash } from '../../src/security/hashing';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, v1 } from '../support/fixtures';
import { goodPassword, insertUserWithPassword } from '../support/sign-in';

let smtp: SMTPServer;
let sms: Server;
let ctx: TestContext;
const mails: ParsedMail[] = [];
const texts: { to: string; text: string; language?: string }[] = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => {
        mails.push(mail);
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  sms = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      texts.push(JSON.parse(raw));
      res.writeHead(202).end('{}');
    });
  });
  await new Promise<void>((resolve) => sms.listen(0, '127.0.0.1', resolve));
  ctx = await createTestContext({
    env: {
      NOTIFY_TRANSPORT: 'live',
      SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
      EMAIL_FROM: 'no-reply@product.test',
      SMS_API_URL: `http://127.0.0.1:${(sms.address() as AddressInfo).port}/sms`,
      SIGN_IN_APP_URL: 'https://login.product.test',
    },
  });
});
afterAll(async () => {
  await ctx.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await new Promise<void>((resolve) => sms.close(() => resolve()));
});

async function userWithCodes(preferredLanguage: string | null) {
  const phone = `+4670${Math.floor(1e7 + Math.random() * 9e7)}`;
  const user = await insertUserWithPassword(ctx.services, {
    otpEmail: true,
    otpSms: true,
    phone,
    tenants: [await insertTenant(ctx.services)],
  });
  await ctx.services.db
    .insertInto('user_settings')
    .values({
      user_id: user.id,
      receive_emails: true,
      notify_checklists: true,
      notify_documents: true,
      preferred_language: preferredLanguage,
    })
    .execute();
  const session = await request(ctx.app)
    .post('/core/v1/sessions')
    .set(v1)
    .send({ grantType: 'password', email: user.email, password: goodPassword });
  expect(session.status).toBe(201);
  return { ...user, phone, session: session.body as { id: string; accessToken: string } };
}

const askForCode = (s: { id: string; accessToken: string }, body: object, acceptLanguage?: string) => {
  const req = request(ctx.app)
    .post(`/core/v1/sessions/${s.id}/challenges`)
    .set(v1)
    .set('authorization', `Bearer ${s.accessToken}`);
  return (acceptLanguage === undefined ? req : req.set('accept-language', acceptLanguage)).send(body);
};

const mailTo = (email: string) =>
  mails.find((m) => (Array.isArray(m.to) ? m.to : [m.to]).some((a) => a?.text === email));

describe('POST /core/v1/sessions/{id}/challenges (one-time codes)', () => {
  test('a user whose language is Swedish gets the code email in Swedish through SMTP, with a text and an HTML part', async () => {
    const user = await userWithCodes('sv');
    // The sign-in app showing English does not override the user's own choice.
    expect((await askForCode(user.session, { otpEmail: true }, 'en-GB,en;q=0.9')).status).toBe(201);
    const mail = mailTo(user.email)!;
    expect(mail.subject).toMatch(/^Din verifieringskod: \d{6}$/);
    expect(mail.text).toMatch(/^Din verifieringskod är \d{6}\.\n\nDen gäller i 10 minuter\./);
    expect(mail.html).toContain('<html lang="sv"');
    expect(mail.html).toContain('Din verifieringskod är');
    expect(mail.headers.get('content-language')).toBe('sv');
  });

  test("a user without a language gets the sign-in app's language (Accept-Language)", async () => {
    const user = await userWithCodes(null);
    expect((await askForCode(user.session, { otpEmail: true }, 'fi-FI,fi;q=0.9,en;q=0.5')).status).toBe(201);
    expect(mailTo(user.email)!.subject).toMatch(/^Vahvistuskoodisi: \d{6}$/);
  });

  test.each([
    ['no Accept-Language', undefined],
    ['a language not offered', 'de-DE,de;q=0.9'],
    ['a header nobody can read', ';;;q=x,,=;'],
    ['a very long header', 'x'.repeat(2_000)],
  ])('with %s, the code email is in English and the request still succeeds', async (_what, header) => {
    const user = await userWithCodes(null);
    expect((await askForCode(user.session, { otpEmail: true }, header)).status).toBe(201);
    expect(mailTo(user.email)!.subject).toMatch(/^Your verification code: \d{6}$/);
  });

  test("the SMS is in the user's language and ends with the origin-bound line for the sign-in app's host", async () => {
    const user = await userWithCodes('nl');
    const res = await askForCode(user.session, { otpSms: true });
    expect(res.status).toBe(201);
    const { text, language } = texts.find((t) => t.to === user.phone)!;
    const code = /(\d{6})/.exec(text)![1];
    expect(text).toBe(`Je verificatiecode is ${code}. 10 minuten geldig.\n@login.product.test #${code}`);
    expect(language).toBe('nl');
  });
});

describe('POST /core/v1/users/password-reset', () => {
  test("the reset email is in the sign-in app's language for a user without one, and its link opens the page in it", async () => {
    const user = await userWithCodes(null);
    const res = await request(ctx.app)
      .post('/core/v1/users/password-reset')
      .set(v1)
      .set('accept-language', 'pt-BR')
      .send({ emailHash: emailHash(user.email) });
    expect(res.status).toBe(202);
    for (let i = 0; i < 100 && !mailTo(user.email); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    const mail = mailTo(user.email)!;
    expect(mail.subject).toBe('Redefina sua senha');
    expect(mail.text).toMatch(
      /https:\/\/login\.product\.test\/reset-password\?userId=\d+&token=[\w-]+&region=eu-north-1&lng=pt\n/,
    );
    expect(mail.html).toContain('>Escolher uma nova senha</a>');
  });
});
