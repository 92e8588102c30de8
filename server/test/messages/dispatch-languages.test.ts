// Messages that fan out (personal alarms, external communication) are written per recipient: each in the
// language its reader has, and a retry of a dispatch in the same language as the first attempt.
import request from 'supertest';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, insertUser, signIn, v1 } from '../support/fixtures';
import {
  fakeClock,
  insertExternalGroup,
  insertSenderSettings,
  only,
  scriptChannels,
  type ScriptedChannel,
} from '../support/crisis-fixtures';

const clock = fakeClock('2026-11-22T08:00:00.000Z');
let ctx: TestContext;
let tenant: number;
let channels: Record<'email' | 'sms' | 'voice' | 'push', ScriptedChannel>;

const setLanguage = (userId: number, language: string | null) =>
  ctx.services.db
    .insertInto('user_settings')
    .values({
      user_id: userId,
      receive_emails: true,
      notify_checklists: true,
      notify_documents: true,
      preferred_language: language,
    })
    .execute();

beforeAll(async () => {
  ctx = await createTestContext({ now: clock.now });
  tenant = await insertTenant(ctx.services);
});
afterAll(() => ctx.close());
beforeEach(() => {
  channels = scriptChannels(ctx.services);
});

describe('a personal alarm', () => {
  test("reaches each recipient in their language, the owner's words unchanged; a retried SMS keeps it", async () => {
    const owner = await insertUser(ctx.services, {
      name: 'Olle <Owner>',
      tenants: [tenant],
      permissions: only('alarms.mayActivate', 'alarms.mayDeactivate'),
    });
    const finn = await insertUser(ctx.services, { phone: '+358401234567', tenants: [tenant] });
    const swede = await insertUser(ctx.services, { email: 'swede@example.test', tenants: [tenant] });
    const unknown = await insertUser(ctx.services, { phone: '+46700000222', tenants: [tenant] });
    await setLanguage(finn.id, 'fi');
    await setLanguage(swede.id, 'sv');
    await setLanguage(owner.id, 'pt');
    const token = (await signIn(ctx.services, owner.id)).accessToken;
    const res = await request(ctx.app)
      .post('/core/v1/personal-alarms')
      .set(v1)
      .set('cosafe-tenant-id', String(tenant))
      .set('authorization', `Bearer ${token}`)
      .send({
        sender: { userId: owner.id, deviceId: 'lang-device' },
        dispatchAt: '2026-11-22T09:00:00.000Z',
        active: true,
        text: 'Pannrummet',
        oneMinuteWarning: true,
        recipientUserIds: [finn.id, swede.id, unknown.id],
        groupIds: [],
      });
    expect(res.status).toBe(201);

    clock.set('2026-11-22T08:59:00.000Z');
    await ctx.services.jobs.runDueJobs();
    const warning = channels.email.sent.find((m) => m.subject === 'Seu alarme pessoal vai disparar em breve');
    expect(warning?.body).toBe(
      'Seu alarme pessoal vai disparar em 60 segundos, a menos que você o pare ou prolongue: Pannrummet',
    );

    channels.sms.failures = 1;
    clock.set('2026-11-22T09:00:00.000Z');
    await ctx.services.jobs.runDueJobs();
    clock.advance(60_000);
    await ctx.services.jobs.runDueJobs();
    const smsTo = (to: string) => channels.sms.sent.filter((m) => m.to === to);
    expect(smsTo('+358401234567')).toHaveLength(1);
    expect(smsTo('+358401234567')[0]).toMatchObject({ language: 'fi', subject: 'Henkilöhälytys: Olle <Owner>' });
    expect(smsTo('+358401234567')[0].body).toBe(
      'Henkilöhälytys käyttäjältä Olle <Owner>: Pannrummet\nAjastin päättyi 22.11.2026 klo 10.00 UTC+1.',
    );
    expect(smsTo('+46700000222')[0].body).toBe(
      'Personal alarm from Olle <Owner>: Pannrummet\nThe timer ran out at 22 Nov 2026, 10:00 CET.',
    );
    const mail = channels.email.sent.find((m) => m.to === 'swede@example.test')!;
    expect(mail).toMatchObject({ language: 'sv', subject: 'Personlarm: Olle <Owner>' });
    expect(mail.html).toContain('<html lang="sv"');
    expect(mail.html).toContain('Personlarm från Olle &lt;Owner&gt;: Pannrummet');
  });
});

describe('an external message', () => {
  test("wraps the sender's text in each contact's language, else the sender's", async () => {
    const sender = await insertUser(ctx.services, { tenants: [tenant], permissions: only('cec.maySend') });
    await setLanguage(sender.id, 'nl');
    await insertSenderSettings(ctx.services, tenant, 'Demo School', 'DemoSchool');
    const parents = await insertExternalGroup(ctx.services, tenant, 'Parents', [
      { name: 'Svensk', email: 'svensk@example.com', phone: '+46700000301' },
      { name: 'Unknown', email: 'unknown@example.com', phone: '+46700000302' },
    ]);
    await ctx.services.db
      .updateTable('cec_contacts')
      .set({ language: 'sv' })
      .where('id', '=', parents.contactIds[0])
      .execute();
    const res = await request(ctx.app)
      .post('/core/v1/external-communications/messages')
      .set(v1)
      .set('cosafe-tenant-id', String(tenant))
      .set('authorization', `Bearer ${(await signIn(ctx.services, sender.id)).accessToken}`)
      .send({
        text: 'School <closed> Friday.',
        channel: { isEmail: true, isSms: true },
        includeVoiceCall: true,
        includeConfirmationLink: true,
        externalCommunicationGroupIds: [parents.id],
      });
    expect(res.status).toBe(201);
    await ctx.services.jobs.runDueJobs();

    const sms = (to: string) => channels.sms.sent.find((m) => m.to === to)!;
    expect(sms('+46700000301').body).toMatch(
      /^School <closed> Friday\.\n\nBekräfta: http:\/\/127\.0\.0\.1:4000\/c\/[\w-]{43}$/,
    );
    expect(sms('+46700000302').body).toMatch(/^School <closed> Friday\.\n\nBevestig: http/);
    const email = channels.email.sent.find((m) => m.to === 'svensk@example.com')!;
    expect(email).toMatchObject({ subject: 'Meddelande från Demo School', sender: 'Demo School', language: 'sv' });
    expect(email.html).toContain('School &lt;closed&gt; Friday.');
    expect(email.html).toContain('>Bekräfta</a>');
    expect(channels.voice.sent.find((m) => m.to === '+46700000302')!.body).toBe(
      'Bericht van Demo School.\nSchool <closed> Friday.',
    );

    // The confirmation page is in the recipient's language too.
    const link = /\/c\/[\w-]{43}/.exec(sms('+46700000301').body)![0];
    const page = await request(ctx.app).get(link);
    expect(page.text).toContain('<html lang="sv">');
    expect(page.text).toContain('Jag har läst meddelandet');
    const unknownLink = await request(ctx.app)
      .get('/c/' + 'A'.repeat(43))
      .set('accept-language', 'es-ES,es;q=0.9');
    expect(unknownLink.status).toBe(404);
    expect(unknownLink.text).toContain('Este enlace no es válido');
  });
});
