// The areas of mutation testing (stryker.config.mjs, scripts/mutation.mjs): the code each mutates and the test files
// that exercise it. The sign-in code and its guards, and the authorization of SCIM and personal alarms.

export const areas = {
  'access-tokens': {
    mutate: ['server/src/security/access-tokens.ts'],
    tests: ['server/test/security/access-token*.test.ts', 'server/test/sessions/refresh.test.ts'],
  },
  probes: {
    mutate: ['server/src/modules/probes/*.ts', '!server/src/modules/probes/index.ts'],
    tests: ['server/test/probes/*.test.ts', 'server/test/security/lockouts.test.ts'],
  },
  throttle: {
    mutate: ['server/src/security/throttle.ts', 'server/src/security/credentials.ts'],
    tests: [
      'server/test/security/lockouts.test.ts',
      'server/test/security/ipv6-network-limits.test.ts',
      'server/test/security/throttled-contract.test.ts',
      'server/test/probes/*.test.ts',
      'server/test/sessions/password-sessions.test.ts',
    ],
  },
  sessions: {
    mutate: ['server/src/modules/sessions/*.ts', '!server/src/modules/sessions/index.ts'],
    tests: [
      'server/test/sessions/*.test.ts',
      'server/test/security/lockouts.test.ts',
      'server/test/security/second-factor.test.ts',
      'server/test/security/refresh-chain.test.ts',
      'server/test/passkeys/second-factor.test.ts',
    ],
  },
  sso: {
    mutate: [
      'server/src/modules/sso/*.ts',
      '!server/src/modules/sso/index.ts',
      '!server/src/modules/sso/sso.handlers.ts',
    ],
    tests: [
      'server/test/sso/*.test.ts',
      'server/test/security/sso-*.test.ts',
      'server/test/security/saml-acs-relay-state.test.ts',
    ],
  },
  'scim-authorization': {
    mutate: ['server/src/modules/scim/scim-auth.ts', 'server/src/modules/api-keys/api-keys.service.ts'],
    tests: ['server/test/scim/scim-users.test.ts', 'server/test/api-keys/*.test.ts'],
  },
  'personal-alarm-authorization': {
    mutate: ['server/src/modules/personal-alarms/personal-alarms.service.ts'],
    tests: ['server/test/personal-alarms/*.test.ts', 'server/test/security/alarm-ownership.test.ts'],
  },
};
