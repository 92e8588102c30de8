// Argument parsers for the operator tool: each turns text into a checked value or says, in one line, what is
// wrong with it (commander prints "error: option '--x <v>' argument 'y' is invalid. <our reason>").
import { InvalidArgumentError } from '@commander-js/extra-typings';
import { isLanguage, languages, type Language } from '../messages/languages';

export function positiveInt(max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    if (!/^[1-9][0-9]*$/.test(value) || Number(value) > max) {
      throw new InvalidArgumentError(
        max === Number.MAX_SAFE_INTEGER
          ? 'Must be a whole number above 0.'
          : `Must be a whole number from 1 to ${max}.`,
      );
    }
    return Number(value);
  };
}

/** One line of text: trimmed, within the length, without control characters (they would end up in headers). */
export function text(min: number, max: number) {
  return (value: string): string => {
    const trimmed = value.trim();
    if ([...trimmed].length < min || [...trimmed].length > max)
      throw new InvalidArgumentError(`Must be ${min} to ${max} characters.`);
    if (/\p{Cc}/u.test(trimmed)) throw new InvalidArgumentError('Must not contain control characters or line breaks.');
    return trimmed;
  };
}

const emailPattern = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export function email(value: string): string {
  const trimmed = value.trim();
  if (trimmed.length > 254 || !emailPattern.test(trimmed)) throw new InvalidArgumentError('Must be an email address.');
  return trimmed;
}

/** http(s) URL without credentials or fragment; https only when `secureOnly`. */
export function url(secureOnly = false) {
  return (value: string): string => {
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      throw new InvalidArgumentError('Must be a URL.');
    }
    const schemes = secureOnly ? ['https:'] : ['https:', 'http:'];
    if (!schemes.includes(parsed.protocol) || parsed.username || parsed.password || parsed.hash) {
      throw new InvalidArgumentError(
        `Must be an ${secureOnly ? 'https' : 'http(s)'} URL without credentials or fragment.`,
      );
    }
    return value;
  };
}

export function language(value: string): Language {
  if (!isLanguage(value)) throw new InvalidArgumentError(`Must be one of ${languages.join(', ')}.`);
  return value;
}

export function phone(value: string): string {
  const compact = value.replace(/[\s().-]/g, '');
  if (!/^\+[1-9][0-9]{6,14}$/.test(compact))
    throw new InvalidArgumentError('Must be an international number: + and 7 to 15 digits.');
  return compact;
}

/** An email domain as the sign-in compares it: lower case, labels of letters, digits and hyphens. */
export function domain(value: string): string {
  const lower = value.trim().toLowerCase();
  if (lower.length > 253 || !/^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/.test(lower))
    throw new InvalidArgumentError('Must be a domain name such as school.example.');
  return lower;
}

/** What an SMS shows as its sender: up to 11 letters, digits and spaces with a letter among them, or a number. */
export function smsSender(value: string): string {
  const trimmed = value.trim();
  if (/^\+?[0-9]{3,15}$/.test(trimmed) || (/^[A-Za-z0-9 ]{1,11}$/.test(trimmed) && /[A-Za-z]/.test(trimmed)))
    return trimmed;
  throw new InvalidArgumentError(
    'Must be up to 11 letters, digits and spaces (with at least one letter), or a phone number of 3 to 15 digits.',
  );
}
