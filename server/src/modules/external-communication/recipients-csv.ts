// Recipients from a CSV file (RFC 4180: comma-separated, fields may be quoted with "", a quote inside doubled;
// UTF-8, with or without a byte order mark). The first line names the columns, in any order and case: name and
// at least one of email and phone are required; title and language are optional. Every row is checked, and every
// problem is reported with the line it starts on, so a file is fixed in one go.
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

const emailPattern = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** An international number (+ and 7 to 15 digits), written with or without spaces, dots, dashes or brackets. */
export function normalisePhone(value: string): string | null {
  const compact = value.replace(/[\s().-]/g, '');
  return /^\+[1-9][0-9]{6,14}$/.test(compact) ? compact : null;
}

export function validEmail(value: string): boolean {
  return value.length <= 254 && emailPattern.test(value);
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
export function parseRecipientsCsv(text: string): { rows: RecipientRow[]; problems: RowProblem[] } {
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
      return v;
    };
    const name = text('name', 255);
    if (name === null) issues.push('name is empty');
    const title = text('title', 255);
    const email = value('email');
    if (email !== null && !validEmail(email)) issues.push(`email "${email.slice(0, 60)}" is not an email address`);
    const phoneGiven = value('phone');
    const phone = phoneGiven === null ? null : normalisePhone(phoneGiven);
    if (phoneGiven !== null && phone === null)
      issues.push(`phone "${phoneGiven.slice(0, 30)}" is not an international number (+ and 7 to 15 digits)`);
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
