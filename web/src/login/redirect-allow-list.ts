const MAX_REDIRECT_LENGTH = 2048;

/** Printable ASCII only: no whitespace, control characters or look-alike Unicode anywhere in the URL. */
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

/**
 * True only when `candidate` is one of the allowed login pages, optionally followed by a query or fragment:
 * the exact scheme, host, port and path as written in the allow-list (entries are checked as canonical when the
 * configuration is read: config/allow-list-entry.ts). Anything that needs normalising to match
 * (case, default ports, percent-encoding, dot segments, backslashes, whitespace) is rejected rather than repaired.
 */
export function isAllowedRedirect(candidate: unknown, allowList: readonly string[]): candidate is string {
  if (typeof candidate !== 'string' || candidate.length > MAX_REDIRECT_LENGTH) return false;
  if (!PRINTABLE_ASCII.test(candidate) || candidate.includes('\\')) return false;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return false;
  }
  return allowList.some((entry) => {
    const literal = candidate === entry || candidate.startsWith(`${entry}?`) || candidate.startsWith(`${entry}#`);
    if (!literal) return false;
    // Belt and braces: what the browser will actually navigate to must agree with the literal match.
    const allowed = new URL(entry);
    return url.origin === allowed.origin && url.pathname === allowed.pathname && !url.username && !url.password;
  });
}
