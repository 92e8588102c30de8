/** @jest-config-loader esbuild-register */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from 'jest';

// ESM-only dependencies that Jest's CommonJS runtime must have transpiled.
const esmOnly = ['jose', 'openid-client', 'oauth4webapi', 'oidc-provider'].join('|');

const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      target: 'es2022',
      transform: { react: { runtime: 'automatic' } },
    },
    module: { type: 'commonjs' },
  },
] as const;

export const server = {
  displayName: 'server',
  rootDir: '<rootDir>',
  testMatch: ['<rootDir>/server/test/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j|mj)sx?$': swc as unknown as [string, Record<string, unknown>] },
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnly})/)`],
  globalSetup: '<rootDir>/server/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/server/test/support/global-teardown.ts',
  // Jest ignores a project's own testTimeout when several projects run: the timeout is set in this file.
  setupFilesAfterEnv: ['<rootDir>/server/test/support/timeout.ts'],
};

// With TEST_DATABASE_URL the server suites run on that PostgreSQL; the security suites run on both stores a region may
// use, so they run once more on PGlite, as the storage suites do. They live with the module or layer they attack
// (server/test/<module>/), so they are named here; a name that no longer matches a file stops the run.
const securitySuites = [
  'contract/throttled-contract',
  'db/alarm-changes-migration',
  'external-communication/invisible-text',
  'http/connection-share',
  'http/request-coercion',
  'http/strict-routes',
  'http/trust-proxy',
  'http/validation-issues',
  'passwords/link-token-transport',
  'passwords/password-links',
  'personal-alarms/alarm-ownership',
  'scim/scim-filter',
  'security/access-token-verification',
  'security/access-tokens',
  'security/hashing-gate',
  'security/outbound-requests',
  'security/sending-quotas',
  'sessions/ipv6-network-limits',
  'sessions/keep-out',
  'sessions/lockouts',
  'sessions/refresh-chain',
  'sessions/second-factor',
  'sso/saml-acs-relay-state',
  'sso/sso-foreign-address',
  'sso/sso-grant-enumeration',
].map((suite) => `server/test/${suite}.test.ts`);
const missingSuites = securitySuites.filter((file) => !existsSync(join(__dirname, file)));
if (missingSuites.length > 0)
  throw new Error(`jest.config.ts names security suites that do not exist: ${missingSuites.join(', ')}`);

const securityOnPglite = {
  ...server,
  displayName: 'security-pglite',
  testMatch: securitySuites.map((file) => `<rootDir>/${file}`),
  setupFiles: ['<rootDir>/server/test/support/pglite-backend.ts'],
};

const config: Config = {
  projects: [
    server,
    ...(process.env.TEST_DATABASE_URL ? [securityOnPglite] : []),
    {
      displayName: 'web',
      rootDir: '<rootDir>',
      testMatch: ['<rootDir>/web/src/**/*.test.ts?(x)'],
      testEnvironment: '<rootDir>/web/test/jsdom-environment.cjs',
      // The same swc transform; react-router's ES modules also read import.meta.hot, which CommonJS lacks.
      transform: {
        '^.+\\.(t|j|mj)sx?$': [
          swc[0],
          {
            ...swc[1],
            jsc: {
              ...swc[1].jsc,
              transform: {
                ...swc[1].jsc.transform,
                optimizer: { globals: { vars: { 'import.meta.hot': 'undefined' } } },
              },
            },
          },
        ] as unknown as [string, Record<string, unknown>],
      },
      // react-router 8 and its dependencies ship only ES modules.
      transformIgnorePatterns: ['/node_modules/(?!(react-router|cookie-es|@remix-run)/)'],
      moduleNameMapper: {
        '^(.*/)?vite-env$': '<rootDir>/web/test/vite-env.cjs',
        '\\.css$': '<rootDir>/web/test/style-stub.cjs',
      },
      setupFilesAfterEnv: ['<rootDir>/web/test/setup.ts'],
    },
    {
      // The sign-in web app in headless Chromium (/usr/bin/chromium) against two regions it starts itself on free
      // loopback ports, and the initial-JavaScript size check (web/e2e, issue 5 items 10-11).
      displayName: 'e2e',
      rootDir: '<rootDir>',
      testMatch: ['<rootDir>/web/e2e/**/*.e2e.test.ts'],
      testEnvironment: 'node',
      transform: { '^.+\\.(t|j|mj)sx?$': swc as unknown as [string, Record<string, unknown>] },
      // One web build for every browser suite of the run (web/e2e/support/shared-build.ts).
      globalSetup: '<rootDir>/web/e2e/support/global-setup.ts',
      globalTeardown: '<rootDir>/web/e2e/support/global-teardown.ts',
      setupFilesAfterEnv: ['<rootDir>/web/e2e/support/timeout.ts'],
    },
  ],
  testTimeout: 30_000,
  // The longest files first, from the committed durations when Jest's cache has none (a fresh clone): a long browser
  // suite that starts last leaves the other worker idle while it runs (test-support/sequencer.cjs).
  testSequencer: '<rootDir>/test-support/sequencer.cjs',
  // Two test files at a time. Left to itself Jest takes one worker fewer than the cores, which on a 2-core machine
  // means one file at a time in Jest's own process; yet most files spend much of their time waiting (on a
  // database, on servers and browsers they started), so two share two cores well. Every file has its own
  // databases, data directories, ports and temporary folders (docs/testing.md), so files do not meet. Each worker
  // is a process of its own with the heap limit `npm test` gives Node; one that holds more than this after a file
  // is replaced before the next, so what files leave behind does not pile up.
  maxWorkers: 2,
  workerIdleMemoryLimit: '2GB',
};

export default config;
