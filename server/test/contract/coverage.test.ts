// Every call of the product specification's section 7 must be in the bundled contract the server loads.
import { readFileSync } from 'node:fs';
import { bundlePath } from '../../src/http/spec';

const section7: [string, string][] = [
  ['post', '/sessions'],
  ['put', '/sessions/{id}'],
  ['delete', '/sessions/{id}'],
  ['post', '/sessions/{id}/challenges'],
  ['patch', '/sessions/{id}'],
  ['post', '/probes/hash/{hash}'],
  ['get', '/probes/idpDomain/{idpDomain}'],
  ['put', '/push-tokens/{id}'],
  ['delete', '/push-tokens/{id}'],
  ['get', '/tenants'],
  ['get', '/users/{userId}'],
  ['patch', '/users/{userId}'],
  ['get', '/users/{userId}/settings'],
  ['patch', '/users/{userId}/settings'],
  ['get', '/users/{userId}/permissions'],
  ['get', '/users/{userId}/password-set'],
  ['post', '/users/{userId}/password-set'],
  ['get', '/users/{userId}/password-reset'],
  ['post', '/users/{userId}/password-reset'],
  ['post', '/users/password-reset'],
  ['get', '/groups'],
  ['get', '/groups/{groupId}'],
  ['get', '/groups/{groupId}/members'],
  ['get', '/meeting-rooms'],
  ['get', '/api-keys'],
  ['post', '/api-keys'],
  ['delete', '/api-keys/{apiKeyId}'],
  ['get', '/contacts'],
  ['post', '/contacts'],
  ['patch', '/contacts/{contactId}'],
  ['delete', '/contacts/{contactId}'],
  ['get', '/external-communications/groups'],
  ['get', '/external-communications/templates'],
  ['get', '/external-communications/messages'],
  ['get', '/external-communications/messages/{messageId}'],
  ['get', '/external-communications/messages/{messageId}/recipients'],
  ['post', '/external-communications/messages'],
  ['post', '/personal-alarms'],
  ['patch', '/personal-alarms/{id}'],
  ['post', '/personal-alarms/{id}/deactivate'],
  ['post', '/personal-alarms/{id}/activate'],
  ['get', '/personal-alarms'],
  ['get', '/personal-alarms/{id}'],
  ['put', '/integrations/oidc'],
  ['get', '/integrations/oidc'],
];
const underCore: [string, string][] = [
  ['get', '/saml/sp'],
  ['post', '/saml/acs'],
];

const spec = JSON.parse(readFileSync(bundlePath, 'utf8'));

describe('the bundled contract', () => {
  test('serves /core/v1', () => {
    expect(spec.servers.map((s: { url: string }) => s.url)).toEqual(['/core/v1']);
  });

  test.each(section7)('has %s /core/v1%s with an operationId, summary, description, tag and errors', (method, path) => {
    const op = spec.paths[path]?.[method];
    expect(op).toBeDefined();
    expect(op.operationId).toMatch(/^[a-z][A-Za-z]+$/);
    expect(op.summary).toBeTruthy();
    expect(op.description).toBeTruthy();
    expect(op.tags).toHaveLength(1);
    expect(Object.keys(op.responses).some((s) => /^4\d\d$/.test(s))).toBe(true);
    expect(op.responses.default).toBeDefined();
  });

  test.each(underCore)('has %s /core%s under the /core server', (method, path) => {
    expect(spec.paths[path]?.[method]).toBeDefined();
    expect(spec.paths[path].servers).toEqual([expect.objectContaining({ url: '/core' })]);
  });

  test("every code of the spec's error catalogue is in the ErrorCode enum", () => {
    const codes = spec.components.schemas.ErrorCode.enum;
    const catalogue = `BAD_REQUEST UNAUTHORIZED EXPIRED_ACCESS_TOKEN FORBIDDEN INTERNAL_SERVER_ERROR TOO_MANY_REQUESTS
      INSUFFICIENT_PRIVILEGES NOT_FOUND LIMIT_REACHED NOT_IMPLEMENTED INVALID_AUTHORIZATION_HEADER INVALID_CREDENTIALS
      INVALID_SESSION_ID INVALID_REFRESH_TOKEN EXPIRED_REFRESH_TOKEN INVALID_SESSION MFA_TOKEN_EXPIRED
      MFA_REQUIRED_BUT_NOT_ENABLED INVALID_SSO_CONFIGURATION INVALID_REDIRECT_URI SSO_CHALLENGE_EXPIRED
      SKOLON_USER_NOT_TEACHER AUTHORIZATION_CODE_NOT_FOUND INVALID_SSO_AUTHORIZATION_CODE INVALID_SSO_ID_TOKEN
      COALERT_CODE_USAGE_LIMIT_REACHED PERSONAL_ALARM_NOT_FOUND PERSONAL_ALARM_CONFLICT PERSONAL_ALARM_NOT_FOUND_RECIPIENTS
      USER_PASSWORD_ALREADY_SET USER_PASSWORD_SET_TOKEN_EXPIRED USER_PASSWORD_SET_TOKEN_INVALID
      CEC_TENANT_CONFIGURATION_INCOMPLETE CEC_MESSAGE_NOT_FOUND CEC_MESSAGE_GROUP_FORBIDDEN`.split(/\s+/);
    expect(codes).toEqual(expect.arrayContaining(catalogue));
    // Every code's row in the description's catalogue, with the server's status: error-statuses.test.ts.
  });

  test('every 429 answer carries a Retry-After header', () => {
    expect(spec.components.responses.TooManyRequests.headers['Retry-After']).toBeDefined();
  });
});
