// Recipients from a CSV file (RFC 4180: comma-separated, fields may be quoted with "", a quote inside doubled;
// UTF-8, with or without a byte order mark, or Windows-1252 when the operator says so). The first line names the
// columns, in any order and case: name and at least one of email and phone are required; title and language are
// optional. Every row is checked, and every problem is reported with the line it starts on, so a file is fixed in
// one go. A phone number is read by libphonenumber and kept in E.164; an email address must be one address as the
// mailer (nodemailer's address parser) reads it, and a well-formed one.
import type * as PhoneNumbers from 'libphonenumber-js/max';
import addressparser from 'nodemailer/lib/addressparser';
import { isLanguage, languages } from '../../messages/languages';
import type { ContactValues } from './external-communication.setup.repository';

export interface RowProblem {
  line: number;
  message: string;
}

export interface RecipientRow extends ContactValues {
  line: number;
}

const columns = ['name', 'title', 'email', 'phone', 'language'] as const;
type Column = (typeof columns)[number];

/** Rows in a file at most; a larger list is split into several imports. */
export const maxRecipientRows = 50_000;

/** The encodings a file may be declared in: UTF-8 (the default), and what Excel's plain "CSV" writes in Western Europe. */
export const recipientFileEncodings = ['utf-8', 'windows-1252'] as const;
export type RecipientFileEncoding = (typeof recipientFileEncodings)[number];
const encodingNames: Record<string, RecipientFileEncoding> = {
  'utf-8': 'utf-8',
  utf8: 'utf-8',
  'windows-1252': 'windows-1252',
  cp1252: 'windows-1252',
  latin1: 'windows-1252',
  'iso-8859-1': 'windows-1252',
};

/** The encoding an operator named (any case; latin1 and iso-8859-1 read as Windows-1252, as browsers do), or null. */
export function recipientFileEncoding(name: string): RecipientFileEncoding | null {
  return encodingNames[name.trim().toLowerCase()] ?? null;
}

/**
 * The text of a file in the encoding it is declared in (UTF-8 unless said otherwise; a byte order mark is dropped).
 * A UTF-8 byte order mark wins over a declared encoding. A file that is not valid UTF-8 is refused, naming the line of the first bad byte: read anyway it would put
 * replacement characters into names ("�sa �berg"), and guessing the encoding could garble them differently.
 */
export function decodeRecipientsFile(
  bytes: Uint8Array,
  encoding: RecipientFileEncoding = 'utf-8',
): string | RowProblem {
  const utf8Mark = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  if (encoding === 'windows-1252' && !utf8Mark) return new TextDecoder('windows-1252').decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const lenient = new TextDecoder('utf-8').decode(bytes);
    const before = lenient.slice(0, lenient.indexOf('\uFFFD'));
    const line = before.split(/\r\n|\r|\n/).length;
    return {
      line,
      message:
        'the file is not UTF-8 (a name with å, ä, ö or é saved by Excel as plain "CSV" is Windows-1252). ' +
        'Save it as "CSV UTF-8", or give --encoding windows-1252',
    };
  }
}

const phoneCharacters = /^\+[0-9 ().\-/\u00A0]+$/;

let phoneNumbers: typeof PhoneNumbers | undefined;

/** libphonenumber with its full metadata (150 kB of JSON), loaded on the first check rather than at every start. */
async function loadPhoneNumbers(): Promise<typeof PhoneNumbers> {
  phoneNumbers ??= await import('libphonenumber-js/max');
  return phoneNumbers;
}

function checkLoaded(lib: typeof PhoneNumbers, value: string): { number: string } | { problem: string } {
  const given = value.trim();
  if (!phoneCharacters.test(given))
    return { problem: 'is not an international number (+ and the country code, then the number)' };
  const parsed = lib.parsePhoneNumberFromString(given);
  if (!parsed) return { problem: 'is not a phone number (no such country code, or too short)' };
  if (!parsed.isValid())
    return {
      problem: parsed.country
        ? `is not a valid number in ${parsed.country} (+${parsed.countryCallingCode})`
        : `is not a valid number for the country code +${parsed.countryCallingCode}`,
    };
  return { number: parsed.number };
}

/**
 * A phone number in E.164 (+ and digits), or why it is not one. It must be written internationally (+ and the
 * country code) with digits, spaces, dots, dashes, slashes and brackets only; a trunk prefix written in brackets
 * or after the country code is dropped (+46 (0)70 ... is +4670...); it must be a valid number of that country.
 */
export async function checkPhone(value: string): Promise<{ number: string } | { problem: string }> {
  return checkLoaded(await loadPhoneNumbers(), value);
}

/** The number in E.164, or null when it is not a valid international number (see checkPhone). */
export async function normalisePhone(value: string): Promise<string | null> {
  const checked = await checkPhone(value);
  return 'number' in checked ? checked.number : null;
}

const atom = "[\\p{L}\\p{N}\\p{M}!#$%&'*+/=?^_`{|}~-]+";
const localPart = new RegExp(`^${atom}(\\.${atom})*$`, 'u');
const label = /^[\p{L}\p{N}\p{M}]([\p{L}\p{N}\p{M}-]{0,61}[\p{L}\p{N}\p{M}])?$/u;

/**
 * One mailbox as the mailer reads it: nodemailer's address parser must find exactly this address and nothing else
 * (`a,b@c.d` is two entries to it, `Name <x@y.z>` a display name), and the address must be a dot-atom local part
 * and a domain of two or more labels (`a@b..c` and `x@y.z>` are not).
 */
export function validEmail(value: string): boolean {
  if (value.length > 254 || value !== value.trim()) return false;
  const entries = addressparser(value, { flatten: true });
  if (entries.length !== 1 || entries[0].name !== '' || entries[0].address !== value) return false;
  const at = value.lastIndexOf('@');
  const local = value.slice(0, at);
  const labels = value.slice(at + 1).split('.');
  return (
    at > 0 &&
    local.length <= 64 &&
    localPart.test(local) &&
    labels.length >= 2 &&
    labels.every((l) => label.test(l)) &&
    !/^[0-9]+$/.test(labels[labels.length - 1])
  );
}

/** Records with the line each starts on; a quoted field may span lines. */
function records(text: string): { line: number; fields: string[] }[] | RowProblem {
  const out: { line: number; fields: string[] }[] = [];
  let line = 1;
  let start = 1;
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let wasQuoted = false;
  const endRecord = () => {
    fields.push(field);
    if (!(fields.length === 1 && fields[0].trim() === '' && !wasQuoted)) out.push({ line: start, fields });
    fields = [];
    field = '';
    wasQuoted = false;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n') line++;
        field += c;
      }
    } else if (c === '"') {
      if (field.trim() !== '') return { line, message: 'a quote (") inside an unquoted field; quote the whole field' };
      field = '';
      quoted = true;
      wasQuoted = true;
    } else if (c === ',') {
      fields.push(field);
      field = '';
      wasQuoted = false;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      start = line;
    } else field += c;
  }
  if (quoted) return { line: start, message: 'a quoted field is not closed' };
  if (field !== '' || fields.length > 0 || wasQuoted) endRecord();
  return out;
}

/** The file's rows, checked; or every problem found. Nothing here touches the database. */
export async function parseRecipientsCsv(text: string): Promise<{ rows: RecipientRow[]; problems: RowProblem[] }> {
  const parsed = records(text.replace(/^\uFEFF/, ''));
  if (!Array.isArray(parsed)) return { rows: [], problems: [parsed] };
  const [header, ...body] = parsed;
  if (!header)
    return { rows: [], problems: [{ line: 1, message: 'the file is empty; its first line names the columns' }] };
  const names = header.fields.map((f) => f.trim().toLowerCase());
  const unknown = names.filter((n) => !(columns as readonly string[]).includes(n));
  const problems: RowProblem[] = [];
  if (unknown.length)
    problems.push({
      line: header.line,
      message: `unknown column(s) ${unknown.map((n) => `"${n}"`).join(', ')}; the columns are ${columns.join(', ')}`,
    });
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  if (twice.length)
    problems.push({ line: header.line, message: `column(s) named twice: ${[...new Set(twice)].join(', ')}` });
  if (!names.includes('name')) problems.push({ line: header.line, message: 'the column "name" is missing' });
  if (!names.includes('email') && !names.includes('phone'))
    problems.push({ line: header.line, message: 'one of the columns "email" and "phone" is needed' });
  if (problems.length) return { rows: [], problems };
  if (body.length === 0)
    return { rows: [], problems: [{ line: header.line, message: 'no recipients below the header' }] };
  if (body.length > maxRecipientRows)
    return {
      rows: [],
      problems: [{ line: header.line, message: `more than ${maxRecipientRows} rows; split the file` }],
    };

  const phones = await loadPhoneNumbers();
  const rows: RecipientRow[] = [];
  const seenEmail = new Map<string, number>();
  const seenPhone = new Map<string, number>();
  for (const record of body) {
    const issues: string[] = [];
    if (record.fields.length !== names.length)
      issues.push(`${record.fields.length} field(s) where the header has ${names.length}`);
    const value = (column: Column) => {
      const index = names.indexOf(column);
      const raw = index < 0 ? '' : (record.fields[index] ?? '').trim();
      return raw === '' ? null : raw;
    };
    const text = (column: Column, max: number) => {
      const v = value(column);
      if (v === null) return null;
      if ([...v].length > max) issues.push(`${column} is longer than ${max} characters`);
      if (/\p{Cc}/u.test(v)) issues.push(`${column} holds a control character or line break`);
      if (v.includes('\uFFFD'))
        issues.push(`${column} holds "\uFFFD", a character lost in an earlier conversion; type it again`);
      return v;
    };
    const name = text('name', 255);
    if (name === null) issues.push('name is empty');
    const title = text('title', 255);
    const email = value('email');
    if (email !== null && !validEmail(email)) issues.push(`email "${email.slice(0, 60)}" is not an email address`);
    const phoneGiven = value('phone');
    const checkedPhone = phoneGiven === null ? null : checkLoaded(phones, phoneGiven);
    const phone = checkedPhone && 'number' in checkedPhone ? checkedPhone.number : null;
    if (phoneGiven !== null && checkedPhone && 'problem' in checkedPhone)
      issues.push(`phone "${phoneGiven.slice(0, 30)}" ${checkedPhone.problem}`);
    if (email === null && phoneGiven === null) issues.push('neither email nor phone is given');
    const language = value('language')?.toLowerCase() ?? null;
    if (language !== null && !isLanguage(language)) issues.push(`language must be one of ${languages.join(', ')}`);
    const emailKey = email?.toLowerCase();
    if (emailKey && seenEmail.has(emailKey)) issues.push(`email ${email} is on line ${seenEmail.get(emailKey)} too`);
    if (phone && seenPhone.has(phone)) issues.push(`phone ${phone} is on line ${seenPhone.get(phone)} too`);
    if (emailKey && !seenEmail.has(emailKey)) seenEmail.set(emailKey, record.line);
    if (phone && !seenPhone.has(phone)) seenPhone.set(phone, record.line);
    if (issues.length) problems.push({ line: record.line, message: issues.join('; ') });
    else rows.push({ line: record.line, name: name!, title, email, phone, language });
  }
  return { rows: problems.length ? [] : rows, problems };
}
