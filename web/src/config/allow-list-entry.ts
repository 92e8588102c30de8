/**
 * Checks an allow-list entry once, at configuration time: an absolute http(s) URL with no userinfo, query or
 * fragment, written exactly as a browser would serialise it, so the literal comparison of login/redirect-allow-list.ts
 * is meaningful. It lives with the configuration it checks: configuration imports no sign-in code.
 */
export function assertAllowListEntry(entry: string): string {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    throw new Error(`Redirect allow-list entry is not a URL: ${entry}`);
  }
  const plain = !url.username && !url.password && !url.search && !url.hash;
  if (!['https:', 'http:'].includes(url.protocol) || !plain || url.href !== entry) {
    throw new Error(`Redirect allow-list entry must be a plain, canonical http(s) URL: ${entry}`);
  }
  return entry;
}
