// Where an identity provider may send the browser back to: the sign-in app's pages named by the region's
// redirect allow-list (REDIRECT_ALLOW_LIST). An entry ending in '/' allows every page below it; any other entry
// allows exactly itself. Candidates must already be canonical (what a browser would serialise) and carry no
// credentials, query or fragment, so a literal comparison is meaningful.
export function isAllowedSsoRedirect(candidate: string, allowList: readonly string[]): boolean {
  // Stryker disable next-line Regex: equivalent; the URL parser strips, percent-encodes or refuses every character
  // outside printable ASCII wherever it stands (a leading one included), so a candidate holding one fails the comparison
  // with its canonical form below whether or not this test refused it first. A second wall, as the dot segments' check.
  if (candidate.length > 2048 || !/^[\x21-\x7e]+$/.test(candidate) || candidate.includes('\\')) return false;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return false;
  }
  if (url.href !== candidate || url.username || url.password || url.search || url.hash) return false;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  // Stryker disable next-line BooleanLiteral,MethodExpression,ArrowFunction,ConditionalExpression: unreachable today; the
  // URL parser removes dot segments (also percent-encoded ones) from http(s) paths, so a candidate holding one already
  // failed the comparison with its canonical form above, and no path that gets here holds one. Kept as a second wall.
  if (url.pathname.split('/').some((segment) => segment === '..' || segment === '.')) return false;
  return allowList.some((entry) => (entry.endsWith('/') ? candidate.startsWith(entry) : candidate === entry));
}
