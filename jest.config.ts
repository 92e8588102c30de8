/** @jest-config-loader esbuild-register */
import type { Config } from 'jest';

// ESM-only dependencies that Jest's CommonJS runtime must have transpiled.
const esmOnly = ['jose'].join('|');

const swc = [
  '@swc/jest',
  {
    jsc: { parser: { syntax: 'typescript', tsx: true }, target: 'es2022', transform: { react: { runtime: 'automatic' } } },
    module: { type: 'commonjs' },
  },
] as const;

const config: Config = {
  projects: [
    {
      displayName: 'server',
      rootDir: '<rootDir>',
      testMatch: ['<rootDir>/server/test/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
      testEnvironment: 'node',
      transform: { '^.+\\.(t|j|mj)sx?$': swc as unknown as [string, Record<string, unknown>] },
      transformIgnorePatterns: [`/node_modules/(?!(${esmOnly})/)`],
      globalSetup: '<rootDir>/server/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/server/test/support/global-teardown.ts',
    },
  ],
  testTimeout: 30_000,
};

export default config;
