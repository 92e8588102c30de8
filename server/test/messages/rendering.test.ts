// Every kind of outbound message in every language: written in that language (no English left in it except for
// en), every placeholder filled, values escaped in HTML, the right lang on the email.
import {
  personalAlarmChangedNotice,
  personalAlarmMessage,
  personalAlarmWarning,
} from '../../src/messages/alarm-messages';
import { catalogs } from '../../src/messages/catalog';
import { externalMessage } from '../../src/messages/external-messages';
import { languages, type Language } from '../../src/messages/languages';
import { placeholderPattern } from '../../src/messages/render';
import {
  invitationEmail,
  oneTimeCodeEmail,
  oneTimeCodeSms,
  passwordResetEmail,
} from '../../src/messages/sign-in-messages';

const hostile = 'Ann <b>"&\'</b>';
const link = 'https://login.example.com/set-password?userId=7&token=abc_DEF-123';
const everyChange = {
  active: { to: true },
  dispatchTime: { from: '2026-11-22T08:30:00.000Z', to: '2026-11-22T09:00:00.000Z' },
  text: { to: 'New <text>' },
  oneMinuteWarning: { to: true },
  location: { from: null, to: 1 },
  groupIds: { from: [], to: [1] },
};
const alarm = {
  owner: hostile,
  text: 'In the <boiler> room & alone',
  dispatchAt: new Date('2026-11-22T09:00:00Z'),
  latitude: 59.3293,
  longitude: 18.0686,
};

interface Rendered {
  subject?: string;
  body: string;
  html?: string;
  language: Language;
}

/** Each kind of message, rendered in a language. */
const kinds: Record<string, (language: Language) => Rendered> = {
  'one-time code email': (l) => oneTimeCodeEmail(l, { code: '518540', minutes: 10 }),
  'one-time code SMS': (l) =>
    oneTimeCodeSms(l, { code: '518540', minutes: 10, signInAppUrl: 'https://login.example.com' }),
  'password reset email': (l) => passwordResetEmail(l, { email: 'ann@example.com', link, minutes: 30 }),
  'invitation email': (l) => invitationEmail(l, { organisation: hostile, email: 'ann@example.com', link, days: 30 }),
  'personal alarm by email': (l) => personalAlarmMessage(l, 'email', alarm, 'Europe/Stockholm'),
  'personal alarm by SMS': (l) => personalAlarmMessage(l, 'sms', alarm, 'Europe/Stockholm'),
  'alarm warning by push': (l) => personalAlarmWarning(l, 'push', alarm, 60),
  'alarm warning by email': (l) => personalAlarmWarning(l, 'email', alarm, 60),
  'alarm changed by someone else, by email': (l) =>
    personalAlarmChangedNotice(
      l,
      'email',
      { actor: hostile, text: alarm.text, dispatchAt: alarm.dispatchAt, changes: everyChange },
      'Europe/Stockholm',
    ),
  'alarm changed by someone now gone, by push': (l) =>
    personalAlarmChangedNotice(
      l,
      'push',
      {
        actor: null,
        text: alarm.text,
        dispatchAt: alarm.dispatchAt,
        changes: { active: { to: false }, oneMinuteWarning: { to: false } },
      },
      'Europe/Stockholm',
    ),
  'external message by email': (l) =>
    externalMessage(l, 'email', {
      sender: hostile,
      content: 'Gate <2> & 3',
      confirmUrl: 'https://api.example.com/c/tok',
    }),
  'external message by SMS': (l) =>
    externalMessage(l, 'sms', { sender: 'School', content: 'Gate 2', confirmUrl: 'https://api.example.com/c/tok' }),
  'external message by voice': (l) =>
    externalMessage(l, 'voice', { sender: 'Demo School', content: 'Gate 2', confirmUrl: null }),
};

/** The English words of every template (the text between placeholders, four characters or more). */
const englishFragments = Object.values(catalogs.en)
  .flatMap((group) => Object.values(group))
  .flatMap((text) => text.split(placeholderPattern).filter((_, i) => i % 2 === 0))
  .map((fragment) => fragment.trim())
  .filter((fragment) => fragment.length >= 4 && /[a-z]{3}/i.test(fragment));

const textsOf = (m: Rendered) => [m.subject ?? '', m.body];

/** The English fragment as whole words ("Confirm" is not in "Confirmar"). */
const containsWords = (text: string, fragment: string) =>
  new RegExp(`(?<!\\p{L})${fragment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?!\\p{L})`, 'u').test(text);

describe.each(Object.keys(kinds))('the %s', (kind) => {
  test.each([...languages])('in %s is in that language, with every placeholder filled', (language) => {
    const message = kinds[kind](language);
    expect(message.language).toBe(language);
    for (const text of textsOf(message)) {
      expect(text).not.toMatch(/{{|}}/);
      if (language !== 'en')
        for (const fragment of englishFragments)
          expect({ text, english: containsWords(text, fragment) ? fragment : null }).toEqual({ text, english: null });
    }
    if (language !== 'en') expect(message.body).not.toBe(kinds[kind]('en').body);
  });
});

describe('email HTML', () => {
  const emails = [
    'one-time code email',
    'password reset email',
    'invitation email',
    'personal alarm by email',
    'alarm changed by someone else, by email',
    'external message by email',
  ];

  test.each(emails.flatMap((kind) => languages.map((language) => [kind, language] as const)))(
    'the %s in %s has lang, a title and every value escaped',
    (kind, language) => {
      const { html, subject } = kinds[kind](language);
      expect(html).toContain(`<html lang="${language}"`);
      expect(html).toContain('<title>');
      expect(html).not.toMatch(/{{|}}/);
      expect(html).not.toMatch(/<b>|<boiler>|<2>|<text>/);
      expect(subject).toBeTruthy();
    },
  );

  test('a value is escaped once, not twice', () => {
    const { html } = kinds['invitation email']('en');
    expect(html).toContain('Ann &lt;b&gt;&quot;&amp;&#39;&lt;/b&gt;');
    expect(html).not.toContain('&amp;lt;');
  });

  test('links are in the text part on a line of their own and a button in the HTML part', () => {
    const { body, html } = kinds['invitation email']('sv');
    expect(body.split('\n')).toContain(link);
    expect(html).toContain(`href="${link.replace(/&/g, '&amp;')}"`);
    expect(html).toContain('>Välj ditt lösenord</a>');
  });
});

describe('texts people rely on, word for word', () => {
  test('the Swedish one-time code email', () => {
    const { subject, body } = oneTimeCodeEmail('sv', { code: '518540', minutes: 10 });
    expect(subject).toBe('Din verifieringskod: 518540');
    expect(body).toBe(
      'Din verifieringskod är 518540.\n\nDen gäller i 10 minuter. Om du inte försökte logga in kan du bortse från det här meddelandet.',
    );
  });

  test('the alarm says when the timer ran out in the region time and in the reader form', () => {
    expect(personalAlarmMessage('sv', 'sms', alarm, 'Europe/Stockholm').body).toContain(
      'Timern gick ut 22 nov. 2026 10:00 CET.',
    );
    expect(personalAlarmMessage('en', 'sms', alarm, 'America/Sao_Paulo').body).toContain(
      'The timer ran out at 22 Nov 2026, 06:00 GMT-3.',
    );
    expect(personalAlarmMessage('fi', 'sms', alarm, 'Europe/Stockholm').body).toContain('59.3293, 18.0686');
  });

  test('the warning counts down with the language own words for time', () => {
    expect(personalAlarmWarning('fi', 'push', alarm, 60).body).toContain('laukeaa 60 sekunnin päästä,');
    expect(personalAlarmWarning('sv', 'push', alarm, 1).body).toContain('går om 1 sekund om');
  });

  test('the notice of a change by someone else says who and what, each time in the reader form', () => {
    const { subject, body } = personalAlarmChangedNotice(
      'en',
      'sms',
      { actor: 'Anna', text: 'Boiler room', dispatchAt: alarm.dispatchAt, changes: everyChange },
      'Europe/Stockholm',
    );
    expect(subject).toBe('Your personal alarm was changed by Anna');
    expect(body.split('\n')).toEqual([
      'Anna changed your personal alarm "Boiler room".',
      'The timer was started: the alarm goes off at 22 Nov 2026, 10:00 CET unless it is stopped.',
      'The alarm now goes off at 22 Nov 2026, 10:00 CET (it was 22 Nov 2026, 09:30 CET).',
      'The text is now: New <text>',
      'The one-minute warning is now on.',
      'The location was changed.',
      'The people who get the alarm were changed.',
      'If you did not expect this, contact Anna or your administrator.',
    ]);
    expect(
      personalAlarmChangedNotice(
        'sv',
        'push',
        { actor: null, text: 'X', dispatchAt: alarm.dispatchAt, changes: { active: { to: false } } },
        'Europe/Stockholm',
      ).body,
    ).toBe(
      'Någon har ändrat ditt personlarm "X".\nTimern har stoppats: inget larm kommer att skickas.\nOm du inte väntade dig det här, kontakta din administratör.',
    );
  });

  test('an external message keeps the sender text exactly and only the wrapper changes', () => {
    const sms = externalMessage('nl', 'sms', {
      sender: 'School',
      content: 'Poort <2>  dicht.\n',
      confirmUrl: 'https://api.example.com/c/tok',
    });
    expect(sms.body).toBe('Poort <2>  dicht.\n\n\nBevestig: https://api.example.com/c/tok');
    const email = externalMessage('en', 'email', { sender: 'School', content: 'Closed.', confirmUrl: null });
    expect(email).toMatchObject({ subject: 'Message from School', body: 'Closed.' });
  });
});
