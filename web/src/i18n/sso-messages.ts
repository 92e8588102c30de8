import { ApiFailure, asFailure } from '../api/api-failure';
import { SsoFailure, type SsoProblem } from '../login/sso-flow';
import { BUSY, type Message, rateLimitedMessage } from './failure-messages';
import type { TranslationKey } from './keys';

const PROBLEM_KEYS: Record<SsoProblem, TranslationKey> = {
  NO_SSO_FOR_DOMAIN: 'sso.errors.noSso',
  SSO_NOT_STARTED: 'sso.errors.notStarted',
  SSO_STATE_MISMATCH: 'sso.errors.mismatch',
  SSO_REFUSED: 'sso.errors.refused',
  saml_validation_failed: 'sso.errors.samlValidationFailed',
  user_not_found: 'sso.errors.userNotFound',
  unauthorized_organization: 'sso.errors.unauthorizedOrganization',
};

/**
 * What the user reads when single sign-on stops. `stage` is where: starting (the email step) or finishing
 * (/login/sso). INVALID_CREDENTIALS comes when finishing: the identity the user signed in as at the identity
 * provider has no account in the organisation (the grant answers every address at the domain alike, so nothing
 * is known before the round trip). When starting it can only come from a region whose server still checked the
 * typed address at the grant: no account for that email. Never the server's English.
 */
export function ssoFailureMessage(error: unknown, stage: 'start' | 'finish'): Message {
  if (error instanceof SsoFailure) return { key: PROBLEM_KEYS[error.problem] };
  const failure = error instanceof ApiFailure ? error : asFailure(error);
  if (failure.shed) return BUSY;
  switch (failure.code) {
    case 'INVALID_SSO_CONFIGURATION':
    case 'INVALID_REDIRECT_URI':
      return { key: 'sso.errors.configuration' };
    case 'SSO_CHALLENGE_EXPIRED':
    case 'EXPIRED_ACCESS_TOKEN':
    case 'INVALID_SESSION':
    case 'INVALID_SESSION_ID':
    case 'UNAUTHORIZED':
      return { key: 'sso.errors.expired' };
    case 'AUTHORIZATION_CODE_NOT_FOUND':
      return { key: 'sso.errors.codeNotFound' };
    case 'INVALID_SSO_AUTHORIZATION_CODE':
      return { key: 'sso.errors.authorizationCode' };
    case 'INVALID_SSO_ID_TOKEN':
      return { key: 'sso.errors.idToken' };
    case 'SKOLON_USER_NOT_TEACHER':
      return { key: 'sso.errors.skolonNotTeacher' };
    case 'INVALID_CREDENTIALS':
      return { key: stage === 'start' ? 'sso.errors.noAccount' : 'sso.errors.unauthorizedOrganization' };
    case 'SERVICE_UNAVAILABLE':
      return { key: 'sso.errors.unavailable' };
    case 'TOO_MANY_REQUESTS':
      return rateLimitedMessage(failure);
    default:
      return { key: 'errors.generic' };
  }
}

/** Messages about the email itself, shown on the email field rather than above the form. */
export const EMAIL_FIELD_KEYS: readonly string[] = ['sso.errors.noSso', 'sso.errors.noAccount'];
