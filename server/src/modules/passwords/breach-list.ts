// New passwords that are too common or known from a breach (ASVS 6.2.4, 6.2.12; NIST SP 800-63B §5.1.1.2): the
// most common passwords of the list @zxcvbn-ts/language-common ships (about 30,000, lowercase), read once on first
// use into a Set; and, where the region configures one, a breach service's k-anonymity range query (the
// Pwned Passwords range API): only the first 5 hex digits of the password's SHA-1 leave the server, through the
// outbound-request guard (security/outbound.ts), and the service's answer is compared here.
import { createHash } from 'node:crypto';
import type { OutboundClient } from '../../security/outbound';

let common: Set<string> | null = null;

/** The list, loaded on first use (a test may count the loads). */
export function commonPasswords(): Set<string> {
  if (!common) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily: nothing is read before a password is set
    const { dictionary } = require('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common');
    common = new Set(dictionary['passwords-common']);
  }
  return common;
}

/** True once the list has been read (a test shows it is not read at start). */
export const commonPasswordsLoaded = () => common !== null;

/**
 * True when the password, without regard to case, is on the list, or is a listed password with only digits and
 * special characters added at its start or end ("Password123!", "!Qwerty2024"): the decoration the composition
 * rules ask for adds nothing an attacker's list does not try first.
 */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  const core = lower.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');
  const list = commonPasswords();
  return list.has(lower) || (core.length > 0 && list.has(core));
}

/** A breach service's range endpoint and how it is reached. */
export interface BreachRange {
  /** The range URL the 5-digit prefix is appended to, after a slash (e.g. https://api.pwnedpasswords.com/range). */
  url: string;
  outbound: OutboundClient;
  timeoutMs: number;
}

/**
 * True when the breach service lists the password: the SHA-1's first 5 hex digits are sent, the answer's lines
 * (`SUFFIX:COUNT`, padded with zero counts) are compared with the other 35 here. An unreachable or failing service
 * answers `undefined`: the caller decides (the password rules and the shipped list still hold).
 */
export async function isBreachedPassword(password: string, range: BreachRange): Promise<boolean | undefined> {
  const sha1 = createHash('sha1').update(password, 'utf8').digest('hex').toUpperCase();
  const prefix = sha1.slice(0, 5);
  const suffix = sha1.slice(5);
  try {
    const response = await range.outbound.fetch(`${range.url.replace(/\/?$/, '/')}${prefix}`, {
      headers: { 'add-padding': 'true', accept: 'text/plain' },
      signal: AbortSignal.timeout(range.timeoutMs),
      redirect: 'error',
    });
    if (!response.ok) return undefined;
    const text = await response.text();
    for (const line of text.split('\n')) {
      const [lineSuffix, count] = line.trim().split(':');
      if (lineSuffix?.toUpperCase() === suffix && Number(count) > 0) return true;
    }
    return false;
  } catch {
    return undefined;
  }
}
