// One-time code SMS stay within one segment in every language: 160 GSM-7 characters, or 70 when the language
// needs characters outside GSM-7 (Spanish and Portuguese "ó", "é"). The table printed is the longest code SMS per
// language and the longest sign-in host that still fits.
import { SegmentedMessage } from 'sms-segments-calculator';
import { languages } from '../../src/messages/languages';
import { oneTimeCodeSms } from '../../src/messages/sign-in-messages';

// Every code has six digits, so any code gives the longest text; the host is a realistic one.
const host = 'login.example.com';
const sms = (language: (typeof languages)[number], signInHost = host) =>
  oneTimeCodeSms(language, { code: '999999', minutes: 10, signInAppUrl: `https://${signInHost}` }).body;

function longestHostThatFits(language: (typeof languages)[number]): number {
  let length = host.length;
  while (
    new SegmentedMessage(sms(language, `${'a'.repeat(length + 1 - '.com'.length)}.com`)).segmentsCount === 1 &&
    length < 200
  )
    length++;
  return length;
}

const report = languages.map((language) => {
  const message = new SegmentedMessage(sms(language));
  return {
    language,
    characters: [...sms(language)].length,
    encoding: message.encodingName,
    segments: message.segmentsCount,
    longestHost: longestHostThatFits(language),
  };
});

test('the one-time code SMS is one segment in every language (longest per language below)', () => {
  process.stdout.write(
    `One-time code SMS with the host ${host}:\n` +
      report
        .map(
          (r) =>
            `  ${r.language}: ${r.characters} characters, ${r.encoding}, ${r.segments} segment(s); fits a host of up to ${r.longestHost} characters`,
        )
        .join('\n') +
      '\n',
  );
  expect(report.filter((r) => r.segments !== 1)).toEqual([]);
});

test('languages written in GSM-7 keep the cheaper encoding', () => {
  expect(report.filter((r) => ['sv', 'en', 'nl', 'fi'].includes(r.language)).map((r) => r.encoding)).toEqual([
    'GSM-7',
    'GSM-7',
    'GSM-7',
    'GSM-7',
  ]);
});

test('every language leaves room for a sign-in host of at least 20 characters', () => {
  expect(report.filter((r) => r.longestHost < 20)).toEqual([]);
});
