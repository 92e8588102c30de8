// Skolon (the Swedish school platform) is one OAuth/OpenID client for the whole region, configured by
// environment (SKOLON_*). Only teachers may sign in: the user type comes from Skolon's user info.
import type { Config } from '../../config';
import { ApiError } from '../../errors';
import type { OidcProvider } from './oidc-client';

export function skolonProvider(config: Config): OidcProvider | undefined {
  const skolon = config.sso.skolon;
  if (!skolon) return undefined;
  return {
    issuer: skolon.issuer,
    authorizationEndpoint: skolon.authorizationEndpoint,
    tokenEndpoint: skolon.tokenEndpoint,
    jwksUri: skolon.jwksUri,
    userInfoEndpoint: skolon.userInfoEndpoint,
    clientId: skolon.clientId,
    clientSecret: skolon.clientSecret,
  };
}

/** Skolon answers `userType` (TEACHER, STUDENT, …); anything but a teacher is refused. */
export function assertSkolonTeacher(userInfo: Record<string, unknown>): void {
  const type = userInfo.userType ?? userInfo.user_type;
  if (typeof type !== 'string' || type.toUpperCase() !== 'TEACHER') {
    throw new ApiError('SKOLON_USER_NOT_TEACHER', { message: 'Only teachers may sign in with Skolon' });
  }
}
