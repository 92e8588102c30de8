// ESLint: typescript-eslint's recommended rules for the server and the web app, and the server's architecture as
// import rules (docs/architecture.md draws the same arrows). server/test/architecture/boundaries.test.ts proves the
// boundary rules still fire.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const src = './server/src';
const modules = readdirSync(new URL('./server/src/modules', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
/** A module's public face; the only file of a module that code outside it may import. */
const publicFace = '**/server/src/modules/*/index.ts';
/** The composition root and what only it and the command line use: it may import everything, nothing imports it. */
const composition = [
  `${src}/{app,bootstrap,main,serve,job-handlers}.ts`,
  `${src}/{demo,admin}/**/*`,
  `${src}/modules/registry*.ts`,
];

const zones = [
  {
    // Infrastructure and the shared kernel know no module (modules register what infrastructure needs to call).
    target: [`${src}/{http,db,security,jobs,notify,messages,shared}/**/*`, `${src}/{config,errors,logger,services}.ts`],
    from: [`${src}/modules/**/*`, ...composition],
    message:
      'Infrastructure and the shared kernel import no module and not the composition root (docs/architecture.md).',
  },
  ...modules.map((name) => ({
    // A module reaches another only through that module's index.ts.
    target: `${src}/modules/${name}/**/*`,
    from: `${src}/modules/!(${name})/**/*`,
    except: [publicFace],
    message: `Import another module only through its index.ts (docs/architecture.md).`,
  })),
  {
    // Modules do not reach back into the composition root, the demo data or the operator tooling.
    target: `${src}/modules/*/**/*`,
    from: composition,
    message: 'Modules do not import the composition root, demo data or operator tooling (docs/architecture.md).',
  },
  {
    // Outside the modules, too, a module is its index.ts.
    target: [`${src}/!(modules)/**/*`, `${src}/*.ts`, `${src}/modules/registry*.ts`],
    from: `${src}/modules/*/**/*`,
    except: [publicFace],
    message: 'Import a module only through its index.ts (docs/architecture.md).',
  },
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'generated/**', 'web/build/**', 'coverage/**'] },
  {
    files: ['server/src/**/*.ts', 'web/src/**/*.{ts,tsx}'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // `import x = require('...')` is TypeScript's typed CommonJS import (route-matcher-cache.ts needs the module object).
      '@typescript-eslint/no-require-imports': ['error', { allowAsImport: true }],
    },
  },
  {
    // Generic plumbing over Kysely's and the validator's own generics (migrations take `Kysely<any>`, as Kysely
    // documents: a migration must not depend on today's schema types). Everything else states its types.
    files: [
      'server/src/db/migrations/**/*.ts',
      'server/src/db/{database,migrate,prepared}.ts',
      'server/src/http/{dispatch,literal-bracket-params,spec}.ts',
      'server/src/shared/paging.ts',
      'server/src/modules/groups/group-visibility.ts',
    ],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['server/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // The dependency graph (no-cycle) reads TypeScript files with the TypeScript parser.
      'import-x/extensions': ['.ts'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'server/tsconfig.json' })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones }],
      // No cycles between files, hence none between modules (sessions <-> sso and groups <-> users were two).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
);
