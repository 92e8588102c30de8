/**
 * How long an access token (a JWT) is valid, in milliseconds, from its own `iat` and `exp` claims: both are server
 * times, so their difference holds whatever the device clock says. Null when the token cannot be read as a JWT.
 * Read for the interface only (when to say that a sign-in has expired); the server checks the signature.
 */
export function accessTokenLifetimeMs(token: string): number | null {
  try {
    const payload = token.split('.')[1] ?? '';
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { iat?: unknown; exp?: unknown };
    if (typeof claims.iat !== 'number' || typeof claims.exp !== 'number' || claims.exp <= claims.iat) return null;
    return (claims.exp - claims.iat) * 1000;
  } catch {
    return null;
  }
}
