// The areas of mutation testing (stryker.config.mjs, scripts/mutation.mjs): the code each mutates and the test files
// that exercise it. The sign-in code and its guards, and the authorization of SCIM and personal alarms. This is the
// one list: the globs name module folders, so code that moves within a module stays mutated. A glob that matches nothing is allowed; a file two areas match is mutated by the first of them only.

const moduleFiles = (folder) => [`server/src/modules/${folder}/**/*.ts`, `!server/src/modules/${folder}/**/index.ts`];

export const areas = {
  // The region's ES256 access tokens: signing, verification, the cache of verified tokens.
  'access-tokens': {
    mutate: ['server/src/security/access-tokens.ts'],
    // The token tests alone: they need no database, so a mutant is tried in seconds.
    tests: ['server/test/security/access-token*.test.ts'],
  },
  // The probe that tells a client how to sign in (password, single sign-on, passkey) without telling accounts apart.
  probes: {
    mutate: [...moduleFiles('probes'), 'server/src/modules/sessions/probe*.ts'],
    tests: [
      'server/test/probes/*.test.ts',
      'server/test/sessions/probe*.test.ts',
      'server/test/sessions/lockouts.test.ts',
      // A probe alone makes no source familiar.
      'server/test/sessions/familiar-source.test.ts',
    ],
  },
  // Lockouts and throttling of sign-in attempts, and the password check they guard.
  throttle: {
    mutate: [
      'server/src/security/throttle*.ts',
      'server/src/modules/sessions/lockout*.ts',
      'server/src/modules/sessions/credentials.ts',
    ],
    // Every sign-in suite: the lockouts guard the password, the codes and the probe alike, and the familiar
    // source, keep-out and second-factor suites test their edges.
    tests: [
      'server/test/sessions/*.test.ts',
      'server/test/contract/throttled-contract.test.ts',
      'server/test/probes/*.test.ts',
      'server/test/security/sending-quotas.test.ts',
    ],
  },
  // One-time codes (e-mail and text message sign-in, password links).
  'one-time-codes': {
    mutate: ['server/src/modules/sessions/one-time-codes.ts'],
    // The second-factor suites attack the codes (ten wrong codes end the session, the lockouts they count
    // towards); the delivery suite sends them in every language.
    tests: [
      'server/test/sessions/one-time-code*.test.ts',
      'server/test/sessions/second-factor.test.ts',
      'server/test/sessions/keep-out.test.ts',
      'server/test/sessions/lockouts.test.ts',
      'server/test/messages/sign-in-delivery.test.ts',
      'server/test/passwords/password-links.test.ts',
    ],
  },
  // Sign-in and sessions: the session rule, refresh, sign-out, second factor; whatever else of the module the areas
  // above leave.
  sessions: {
    mutate: moduleFiles('sessions'),
    tests: [
      'server/test/sessions/*.test.ts',
      'server/test/sessions/lockouts.test.ts',
      'server/test/sessions/second-factor.test.ts',
      'server/test/sessions/refresh-chain.test.ts',
      'server/test/passkeys/second-factor.test.ts',
      // The grants the sessions module dispatches to other modules, and the grant-type header the door reads.
      'server/test/passkeys/passwordless.test.ts',
      'server/test/coalert-codes/*.test.ts',
      'server/test/http/admission.test.ts',
    ],
  },
  // Single sign-on (OIDC, SAML, Skolon): the flows and the sessions they open; the handlers are thin.
  sso: {
    mutate: [...moduleFiles('sso'), '!server/src/modules/sso/sso.handlers.ts'],
    tests: [
      'server/test/sso/*.test.ts',
      'server/test/sso/sso-*.test.ts',
      'server/test/sso/saml-acs-relay-state.test.ts',
      // The crafted redirect targets against the SSO redirect check, directly and through the API.
      'server/test/prove/security.test.ts',
      // An identity provider that cannot be reached, or answers from an address it must not.
      'server/test/security/outbound-requests.test.ts',
    ],
  },
  // SCIM authorization: the API key that authenticates a SCIM client and the scopes it carries.
  'scim-authorization': {
    mutate: ['server/src/modules/scim/scim-auth.ts', 'server/src/modules/api-keys/api-keys.service.ts'],
    tests: [
      'server/test/scim/scim-auth*.test.ts',
      'server/test/scim/scim-groups.test.ts',
      'server/test/scim/scim-users.test.ts',
      'server/test/api-keys/*.test.ts',
    ],
  },
  // Personal alarms: who may see, change and end an alarm.
  'personal-alarm-authorization': {
    // The owner-or-operator rule lives in the audit file, the flags in the service.
    mutate: [
      'server/src/modules/personal-alarms/personal-alarms.service.ts',
      'server/src/modules/personal-alarms/personal-alarms.audit.ts',
    ],
    tests: [
      'server/test/personal-alarms/*.test.ts',
      'server/test/personal-alarms/alarm-ownership.test.ts',
      // The quota of alarms that go off at once, counted by the service before its transaction.
      'server/test/security/sending-quotas.test.ts',
    ],
    // Static mutants (module-level code, run once when the module loads) cannot be tied to a test: each reruns every
    // test of the area in a fresh process. Here they were a quarter of the mutants and two thirds of the time (a run
    // of five hours on one core): they are left out and counted in the report's "Ignored" column, not in the score.
    ignoreStatic: true,
  },
  // The areas below were added with the register of security rules (docs/testing.md) and have not had a full run
  // yet: their reports come with their first run.
  // The request's authentication: token, session, second factor, tenant membership.
  'http-auth': {
    mutate: ['server/src/http/auth.ts', 'server/src/http/auth.repository.ts'],
    tests: [
      'server/test/http/request-authentication.test.ts',
      'server/test/http/errors-and-auth.test.ts',
      'server/test/security/access-token-verification.test.ts',
    ],
  },
  // Passkeys: enrolment, passwordless and second-factor ceremonies, their challenges and counters.
  passkeys: {
    mutate: [...moduleFiles('passkeys'), '!server/src/modules/passkeys/passkeys.handlers.ts'],
    tests: ['server/test/passkeys/*.test.ts'],
  },
  // Passwords: the policy, set and reset links, the breach list.
  passwords: {
    mutate: [...moduleFiles('passwords'), '!server/src/modules/passwords/passwords.handlers.ts'],
    tests: ['server/test/passwords/*.test.ts'],
  },
  // SCIM services: every query and change scoped to the key's tenant.
  'scim-services': {
    mutate: [
      'server/src/modules/scim/scim-users.service.ts',
      'server/src/modules/scim/scim-groups.service.ts',
      'server/src/modules/scim/scim-users.repository.ts',
      'server/src/modules/scim/scim-groups.repository.ts',
    ],
    tests: ['server/test/scim/*.test.ts'],
  },
  // The personal-alarm repository: the tenant filter of every read and change.
  'personal-alarm-repository': {
    mutate: ['server/src/modules/personal-alarms/personal-alarms.repository.ts'],
    tests: ['server/test/personal-alarms/*.test.ts'],
  },
  // The sending quotas: counted only by a request that succeeded, never refusing whoever is in danger.
  'crisis-quota': {
    mutate: ['server/src/security/sending-quotas.ts'],
    tests: ['server/test/security/sending-quotas.test.ts', 'server/test/external-communication/ceiling-lift.test.ts'],
  },
};

// A file two areas match belongs to the first: later areas exclude what earlier ones mutate.
const seen = [];
for (const area of Object.values(areas)) {
  const own = area.mutate.filter((glob) => !glob.startsWith('!'));
  area.mutate = [...area.mutate, ...seen.map((glob) => `!${glob}`)];
  seen.push(...own);
}
