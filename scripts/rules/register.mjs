// The register of security and safety rules: docs/security.md's rows as data. Each rule has
//   id     a stable name (reports/rules.json, `npm run test:rules -- <id>`);
//   ref    the ASVS 5.0 requirement or the product specification's section it serves;
//   home   the file and a text that occurs in it exactly once: the rule's one home (its line is found at run time,
//          so the register survives edits around it; a rule moved or rewritten must move its home with it);
//   flip   the small edit that breaks the rule: `to` replaces the home's text (or `from`, a text of the same file that
//          also occurs exactly once);
//   tests  the test files that reach the rule; broken, the rule must fail at least two of their tests.
// scripts/rules/run.mjs applies each flip to a scratch copy and runs the tests (docs/testing.md, "The register").

const t = (path) => `server/test/${path}.test.ts`;

/** The request's authentication: every operation that takes an access token goes through `authenticate`. */
const authentication = [
  {
    id: 'auth.session-user',
    ref: 'ASVS 7.2.1',
    home: { file: 'server/src/http/auth.ts', text: 'session.user_id !== claims.userId ||' },
    flip: { to: 'false ||' },
    tests: [t('http/request-authentication'), t('http/errors-and-auth')],
  },
  {
    id: 'auth.revoked-session',
    ref: 'ASVS 7.4.1',
    home: { file: 'server/src/http/auth.ts', text: 'session.revoked_at !== null ||' },
    flip: { to: 'false ||' },
    tests: [t('http/request-authentication'), t('http/errors-and-auth')],
  },
  {
    id: 'auth.expired-session',
    ref: 'ASVS 7.3.1',
    home: { file: 'server/src/http/auth.ts', text: 'session.expires_at <= services.now()' },
    flip: { to: 'session.expires_at <= new Date(0)' },
    tests: [t('http/request-authentication'), t('http/errors-and-auth')],
  },
  {
    id: 'auth.second-factor',
    ref: 'ASVS 6.3.3, 7.2.4',
    home: { file: 'server/src/http/auth.ts', text: '&& !allowedWhilePending.has(operationId)) {' },
    flip: { to: '&& false) {' },
    tests: [t('http/request-authentication'), t('http/errors-and-auth')],
  },
  {
    id: 'auth.pending-token-ends',
    ref: 'ASVS 7.2.4',
    home: { file: 'server/src/http/auth.ts', text: 'if (claims.pending && !hasPendingFactor(session.factors))' },
    flip: { to: 'if (false)' },
    tests: [t('http/request-authentication'), t('http/errors-and-auth')],
  },
  {
    id: 'auth.tenant-membership',
    ref: 'ASVS 8.2.2 (spec: cosafe-tenant-id)',
    home: { file: 'server/src/http/auth.ts', text: 'if (!session.is_member)' },
    flip: { to: 'if (false)' },
    tests: [t('http/request-authentication'), t('http/errors-and-auth')],
  },
  {
    id: 'auth.deactivated-membership',
    ref: 'ASVS 7.4.2',
    home: { file: 'server/src/http/auth.repository.ts', text: ".on('m.active', '=', sql.lit(true))," },
    flip: { to: ".on('m.active', 'is not', null)," },
    tests: [t('http/request-authentication'), t('http/errors-and-auth')],
  },
  {
    id: 'auth.token-audience',
    ref: 'ASVS 7.2.1, 9.2.3',
    home: { file: 'server/src/security/access-tokens.ts', text: 'allowedAud: audience,' },
    flip: { to: 'allowedAud: undefined,' },
    tests: [t('security/access-token-verification'), t('security/access-tokens')],
  },
];

/** Refresh tokens: rotation and the reuse of a superseded one. */
const refresh = [
  {
    id: 'refresh.rotation-live-session',
    ref: 'ASVS 7.4.1',
    home: {
      file: 'server/src/modules/sessions/sessions.repository.ts',
      text: 'where id = ${p.sessionId}::uuid and refresh_token_hash = ${p.tokenHash} and revoked_at is null and',
    },
    flip: { to: 'where id = ${p.sessionId}::uuid and refresh_token_hash = ${p.tokenHash} and' },
    tests: [t('sessions/refresh'), t('sessions/refresh-chain')],
  },
  {
    id: 'refresh.reuse-revokes',
    ref: 'ASVS 7.4.1',
    home: {
      file: 'server/src/modules/sessions/sessions.repository.ts',
      text: 'and not (select is_current or is_grace_predecessor from s)',
    },
    flip: { to: 'and false' },
    tests: [t('sessions/refresh'), t('sessions/refresh-chain')],
  },
];

/** The sign-in's lockouts and ceilings (one policy object, sessions/lockout-keys.ts). */
const lockouts = [
  {
    id: 'lockout.per-pair',
    ref: 'ASVS 6.3.1',
    home: { file: 'server/src/modules/sessions/lockout-keys.ts', text: 'loginPerPair: { freeFailures: 5,' },
    flip: { to: 'loginPerPair: { freeFailures: 6,' },
    tests: [t('sessions/lockouts'), t('sessions/lockout-edges')],
  },
  {
    id: 'lockout.per-account',
    ref: 'ASVS 6.3.1',
    home: {
      file: 'server/src/modules/sessions/lockouts.ts',
      text: '{ key: lockoutKey.account(hash), policy: signInPolicies.loginPerAccount, unlessFamiliar: true, stepUp: true },',
    },
    flip: { to: '' },
    tests: [t('sessions/lockouts'), t('sessions/keep-out')],
  },
  {
    id: 'lockout.checked-cap',
    ref: 'ASVS 6.3.1 (NIST SP 800-63B 5.2.2)',
    home: { file: 'server/src/modules/sessions/lockout-keys.ts', text: 'checkedCap: 100 }' },
    flip: { to: 'checkedCap: 0 }' },
    tests: [t('sessions/keep-out')],
  },
  {
    id: 'lockout.per-address',
    ref: 'ASVS 6.3.1',
    home: {
      file: 'server/src/modules/sessions/lockouts.ts',
      text: '{ key: lockoutKey.address(ip), policy: signInPolicies.loginPerAddress, unlessFamiliar: true },',
    },
    flip: { to: '' },
    tests: [t('sessions/lockouts'), t('sessions/ipv6-network-limits')],
  },
  {
    id: 'lockout.second-factor-per-identity',
    ref: 'ASVS 6.6.3',
    home: { file: 'server/src/modules/sessions/lockouts.ts', text: '...(options.code' },
    flip: { to: '...(false' },
    tests: [t('sessions/second-factor'), t('sessions/one-time-code-edges')],
  },
  {
    id: 'probe.held-to-sign-in-lockouts',
    ref: 'ASVS 6.1.3, 6.3.1',
    home: {
      file: 'server/src/modules/sessions/probe.ts',
      text: 'const guard = { attempt: loginAttempt(services, input.hash, ip) };',
    },
    flip: { to: 'const guard = { attempt: undefined };' },
    tests: [t('probes/probes'), t('probes/probe-failures-end')],
  },
];

/** One-time codes. */
const codes = [
  {
    id: 'code.compared',
    ref: 'ASVS 6.6.2',
    home: {
      file: 'server/src/modules/sessions/one-time-codes.ts',
      text: "if (!safeEqual(challenge.secret_hash ?? '', hashCode(services, challenge.id, code))) {",
    },
    flip: { to: 'if (false) {' },
    tests: [t('sessions/one-time-codes'), t('sessions/one-time-code-edges')],
  },
  {
    id: 'code.tries-per-code',
    ref: 'ASVS 6.6.3',
    home: { file: 'server/src/modules/sessions/one-time-codes.ts', text: 'if (challenge.attempts >= maxAttempts)' },
    flip: { to: 'if (challenge.attempts > maxAttempts)' },
    tests: [t('sessions/one-time-codes'), t('sessions/one-time-code-edges')],
  },
  {
    id: 'code.lifetime',
    ref: 'ASVS 6.5.5',
    home: {
      file: 'server/src/modules/sessions/one-time-codes.ts',
      text: "if (challenge.valid_until <= now) return { error: 'MFA_TOKEN_EXPIRED' as const };",
    },
    flip: { to: "if (false) return { error: 'MFA_TOKEN_EXPIRED' as const };" },
    tests: [t('sessions/one-time-codes'), t('sessions/one-time-code-edges')],
  },
  {
    id: 'code.wrong-answers-end-session',
    ref: 'ASVS 6.6.3',
    home: { file: 'server/src/modules/sessions/one-time-codes.ts', text: 'maxWrongCodesPerSession = 10;' },
    flip: { to: 'maxWrongCodesPerSession = 11;' },
    tests: [t('sessions/second-factor'), t('sessions/one-time-code-edges')],
  },
];

/** Passkeys: ceremonies and enrolment. */
const passkeys = [
  {
    id: 'passkey.user-verification-assertion',
    ref: 'ASVS 6.3.3, WebAuthn 7.2',
    home: {
      file: 'server/src/modules/passkeys/webauthn.ts',
      text: 'expectedRPID: config.rpId,\n      requireUserVerification: true,\n      credential',
    },
    flip: { to: 'expectedRPID: config.rpId,\n      requireUserVerification: false,\n      credential' },
    tests: [t('passkeys/passwordless'), t('passkeys/second-factor')],
  },
  {
    id: 'passkey.counter-backwards',
    ref: 'WebAuthn 6.1.1',
    home: { file: 'server/src/modules/passkeys/webauthn.ts', text: '&& presented <= stored;' },
    flip: { to: '&& presented < stored;' },
    tests: [t('passkeys/passwordless')],
  },
  {
    id: 'passkey.challenge-expiry',
    ref: 'ASVS 6.5.1, 6.6.2',
    home: {
      file: 'server/src/modules/passkeys/passkeys.repository.ts',
      text: 'return rows.filter((row) => row.expires_at > where.now)',
    },
    flip: { to: 'return rows.filter(() => true)' },
    tests: [t('passkeys/passwordless'), t('passkeys/enrolment')],
  },
  {
    id: 'passkey.second-factor-own-passkey',
    ref: 'ASVS 6.6.2',
    home: {
      file: 'server/src/modules/passkeys/passkey-sign-in.ts',
      text: 'if (!passkey || Number(passkey.user_id) !== userId || passkey.suspicious_at !== null) return fail();',
    },
    flip: { to: 'if (!passkey || passkey.suspicious_at !== null) return fail();' },
    tests: [t('passkeys/second-factor')],
  },
  {
    id: 'passkey.enrolment-needs-own-credentials',
    ref: 'ASVS 7.5.1',
    home: {
      file: 'server/src/modules/passkeys/passkeys.service.ts',
      text: "if (auth.factors.password !== 'verified' && auth.factors.passkey !== 'verified')",
    },
    flip: { to: 'if (false)' },
    tests: [t('passkeys/enrolment')],
  },
];

/** Passwords and their links. */
const passwords = [
  {
    id: 'password.minimum-length',
    ref: 'ASVS 6.2.1 (spec section 5)',
    home: { file: 'server/src/modules/passwords/policy.ts', text: 'test: (p) => [...p].length >= 10' },
    flip: { to: 'test: (p) => [...p].length >= 9' },
    tests: [t('passwords/policy'), t('passwords/passwords'), t('passwords/password-links')],
  },
  {
    id: 'link-token.expiry',
    ref: 'ASVS 6.4.1',
    home: { file: 'server/src/modules/passwords/passwords.service.ts', text: ': row.expires_at <= services.now()' },
    flip: { to: ': row.expires_at <= new Date(0)' },
    tests: [t('passwords/passwords'), t('passwords/password-links')],
  },
  {
    id: 'link-token.single-use',
    ref: 'ASVS 6.4.1',
    home: {
      file: 'server/src/modules/passwords/passwords.service.ts',
      text: ": row.used_at || (kind === 'set' && row.password_hash)",
    },
    flip: { to: ": kind === 'set' && row.password_hash" },
    tests: [t('passwords/passwords'), t('passwords/password-links')],
  },
];

/** Single sign-on and SCIM. */
const enterprise = [
  {
    id: 'sso.domain-binding',
    ref: 'ASVS 6.8.1',
    home: {
      file: 'server/src/modules/sso/sso-sessions.ts',
      text: 'if (row?.tenant_id === target.tenantId && row.kind === target.kind) return true;',
    },
    flip: { to: 'if (row) return true;' },
    tests: [t('sso/sso-foreign-address'), t('sso/oidc-sign-in')],
  },
  {
    id: 'sso.redirect-allow-list',
    ref: 'ASVS 3.7.2 (open redirects)',
    home: {
      file: 'server/src/modules/sso/redirect-uri.ts',
      text: "(entry.endsWith('/') ? candidate.startsWith(entry) : candidate === entry)",
    },
    flip: { to: '(candidate.startsWith(entry))' },
    tests: [t('sso/redirect-uri'), t('sso/oidc-sign-in')],
  },
  {
    id: 'scim.key-scope',
    ref: 'ASVS 8.2.1 (spec: SCIM api keys)',
    home: { file: 'server/src/modules/scim/scim-auth.ts', text: "if (!key || key.scope !== 'scim')" },
    flip: { to: 'if (!key)' },
    tests: [t('scim/scim-auth')],
  },
  {
    id: 'scim.users-tenant-scope',
    ref: 'ASVS 8.2.2',
    home: {
      file: 'server/src/modules/scim/scim-users.repository.ts',
      text: ".where('memberships.tenant_id', '=', tenantId);",
    },
    flip: { to: ';' },
    tests: [t('scim/scim-users'), t('scim/scim-auth')],
  },
  {
    id: 'scim.groups-tenant-scope',
    ref: 'ASVS 8.2.2',
    home: {
      file: 'server/src/modules/scim/scim-groups.repository.ts',
      text: ".where('scim_groups.tenant_id', '=', tenantId)\n    .where('groups.tenant_id', '=', tenantId);",
    },
    flip: { to: ';' },
    tests: [t('scim/scim-groups'), t('scim/scim-auth')],
  },
];

/** Personal alarms and the sending quotas. */
const alarms = [
  {
    id: 'alarm.tenant-filter',
    ref: 'ASVS 8.2.2',
    home: {
      file: 'server/src/modules/personal-alarms/personal-alarms.repository.ts',
      text: ".select(alarmColumns)\n    .where('tenant_id', '=', tenantId)\n    .where('id', '=', id);",
    },
    flip: { to: ".select(alarmColumns)\n    .where('id', '=', id);" },
    tests: [t('personal-alarms/alarm-ownership'), t('personal-alarms/personal-alarms')],
  },
  {
    id: 'alarm.started-for-yourself',
    ref: 'ASVS 8.2.2 (spec: personal alarms)',
    home: {
      file: 'server/src/modules/personal-alarms/personal-alarms.service.ts',
      text: 'if (body.sender.userId !== auth.userId)',
    },
    flip: { to: 'if (false)' },
    tests: [t('personal-alarms/alarm-ownership'), t('personal-alarms/personal-alarms')],
  },
  {
    id: 'quota.count-past-limit',
    ref: 'ASVS 2.4.1',
    home: { file: 'server/src/security/sending-quotas.ts', text: '.filter((r) => r.count > entries.find' },
    flip: { to: '.filter((r) => r.count > 1 + entries.find' },
    tests: [t('security/sending-quotas')],
  },
  {
    id: 'quota.danger-never-refused',
    ref: 'ASVS 2.4.1 (spec: whoever is in danger is never refused)',
    home: { file: 'server/src/security/sending-quotas.ts', text: 'if (goesOffNow) return;' },
    flip: { to: 'if (false) return;' },
    tests: [t('security/sending-quotas')],
  },
];

/**
 * The sign-in's SQL rule (which factors a session starts with, when it is complete, how long it lives): conditions
 * inside SQL statements, which a mutation tool sees as one string.
 */
const migration = 'server/src/db/migrations/2026-11-26T2300-session-factor-rule.ts';
const sessionRepository = 'server/src/modules/sessions/sessions.repository.ts';
const sessionRuleTests = [t('sessions/session-rule'), t('sessions/password-sessions')];
const sqlRule = [
  {
    id: 'sql.password-starts-verified',
    ref: 'ASVS 6.4.3 (spec: factors of a sign-in)',
    home: { file: migration, text: "jsonb_build_object('password', 'verified')" },
    flip: { to: "jsonb_build_object('password', 'unverified')" },
    tests: sessionRuleTests,
  },
  {
    id: 'sql.email-code-starts-unverified',
    ref: 'ASVS 6.3.3',
    home: { file: migration, text: "jsonb_build_object('otpEmail', 'unverified')" },
    flip: { to: "jsonb_build_object('otpEmail', 'verified')" },
    tests: sessionRuleTests,
  },
  {
    id: 'sql.sms-code-starts-unverified',
    ref: 'ASVS 6.3.3',
    home: { file: migration, text: "jsonb_build_object('otpSms', 'unverified')" },
    flip: { to: "jsonb_build_object('otpSms', 'verified')" },
    tests: sessionRuleTests,
  },
  {
    id: 'sql.passkey-starts-unverified',
    ref: 'ASVS 6.3.3',
    home: { file: migration, text: "jsonb_build_object('passkey', 'unverified')" },
    flip: { to: "jsonb_build_object('passkey', 'verified')" },
    tests: [...sessionRuleTests, t('passkeys/second-factor')],
  },
  {
    id: 'sql.pending-lifetime',
    ref: 'ASVS 7.1.1',
    home: { file: migration, text: "interval '15 minutes'" },
    flip: { to: "interval '16 minutes'" },
    tests: sessionRuleTests,
  },
  {
    id: 'sql.lifetime-pending-means-unverified',
    ref: 'ASVS 7.1.1',
    home: { file: migration, text: "f.value = 'unverified')\n        then" },
    flip: { to: "f.value = 'verified')\n        then" },
    tests: sessionRuleTests,
  },
  {
    id: 'sql.sign-in-complete-means-verified',
    ref: 'ASVS 6.3.3',
    home: { file: sessionRepository, text: "f.value = ${sql.lit('unverified')})),\n  access as" },
    flip: { to: "f.value = ${sql.lit('verified')})),\n  access as" },
    tests: ['server/test/sessions', 'server/test/probes'],
  },
  {
    id: 'sql.session-insert-complete-means-verified',
    ref: 'ASVS 6.3.3',
    home: {
      file: sessionRepository,
      text: "f.value = ${sql.lit('unverified')})`)}\n    select id, factors, expires_at",
    },
    flip: { to: "f.value = ${sql.lit('verified')})`)}\n    select id, factors, expires_at" },
    tests: ['server/test/sessions', 'server/test/probes'],
  },
  {
    id: 'sql.rotation-pending-not-refreshable',
    ref: 'ASVS 7.3.1',
    home: { file: sessionRepository, text: "f.value = ${sql.lit('unverified')})\n    returning id, user_id, factors" },
    flip: { to: "f.value = ${sql.lit('verified')})\n    returning id, user_id, factors" },
    tests: [...sessionRuleTests, t('sessions/refresh')],
  },
  {
    id: 'sql.session-lifetime',
    ref: 'ASVS 7.3.2 (spec: 365 days)',
    home: { file: 'server/src/modules/sessions/lifetimes.ts', text: 'sessionLifetimeMs = 365 * 86_400_000' },
    flip: { to: 'sessionLifetimeMs = 364 * 86_400_000' },
    tests: sessionRuleTests,
  },
];

export const rules = [
  ...authentication,
  ...refresh,
  ...lockouts,
  ...codes,
  ...passkeys,
  ...passwords,
  ...enterprise,
  ...alarms,
  ...sqlRule,
];
