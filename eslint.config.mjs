// ESLint: typescript-eslint's recommended rules for the server and the web app, the rules of React hooks for the web
// app, and both apps' architecture as import rules (docs/architecture.md draws the same arrows).
// server/test/architecture/boundaries.test.ts and web-boundaries.test.ts prove the boundary rules still fire.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import noImportCycle from './scripts/eslint/no-import-cycle.mjs';

const src = './server/src';
const modules = readdirSync(new URL('./server/src/modules', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
/** A module's public face; the only file of a module that code outside it may import. */
const publicFace = '**/server/src/modules/*/index.ts';
/** The composition root and what only it and the command line use: it may import everything, nothing imports it. */
const composition = [
  `${src}/{app,bootstrap,main,serve,job-handlers,telemetry,startup-failure}.ts`,
  `${src}/{demo,admin}/**/*`,
  `${src}/modules/registry*.ts`,
];

/**
 * The layers below the modules, lowest first (docs/architecture.md, "Layers and allowed arrows"). A file imports
 * its own layer and the layers below it, never one above: type-only imports included (the rule reads every import).
 */
const layers = [
  { name: 'config, errors, logger', paths: [`${src}/{config,errors,logger}.ts`] },
  { name: 'db/', paths: [`${src}/db/**/*`] },
  { name: 'metrics/', paths: [`${src}/metrics/**/*`] },
  { name: 'messages/', paths: [`${src}/messages/**/*`] },
  { name: 'security/', paths: [`${src}/security/**/*`] },
  { name: 'shared/', paths: [`${src}/shared/**/*`] },
  { name: 'jobs/', paths: [`${src}/jobs/**/*`] },
  { name: 'notify/', paths: [`${src}/notify/**/*`] },
  { name: 'http/', paths: [`${src}/http/**/*`] },
  // The composition root's boot-time object, on top: no layer below names it (each declares the narrow shape it
  // uses). A glob, as the rule wants every `from` of a zone to be (`[s]` matches the one file).
  { name: 'services.ts', paths: [`${src}/service[s].ts`] },
];
const layerZones = layers.slice(0, -1).map((layer, i) => ({
  target: layer.paths,
  from: layers.slice(i + 1).flatMap((above) => above.paths),
  message: `Upward import: ${layer.name} imports only the layers below it (docs/architecture.md, layers).`,
}));

const zones = [
  ...layerZones,
  {
    // Infrastructure and the shared kernel know no module (modules register what infrastructure needs to call).
    target: layers.flatMap((layer) => layer.paths),
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
    // A module's face offers what its callers mean to do, not its repository's statements.
    target: `${src}/modules/*/index.ts`,
    from: `${src}/modules/*/*.repository.ts`,
    message:
      "A module's index.ts offers intentions, not its repository's statements: export a service function (docs/architecture.md).",
  },
  {
    // Modules do not reach back into the composition root, the demo data or the operator tooling.
    target: `${src}/modules/*/**/*`,
    from: composition,
    message: 'Modules do not import the composition root, demo data or operator tooling (docs/architecture.md).',
  },
  {
    // A module names the ports it needs in its deps type (`<module>.deps.ts`); the boot-time Services object stays
    // in the composition root, which hands each module only its own (modules/registry.ts). Type-only imports count.
    target: `${src}/modules/*/**/*`,
    from: `${src}/service[s].ts`,
    message:
      "Modules do not import services.ts: declare the ports in the module's deps type, wired in modules/registry.ts (docs/architecture.md).",
  },
  {
    // Outside the modules, too, a module is its index.ts.
    target: [`${src}/!(modules)/**/*`, `${src}/*.ts`, `${src}/modules/registry*.ts`],
    from: `${src}/modules/*/**/*`,
    except: [publicFace],
    message: 'Import a module only through its index.ts (docs/architecture.md).',
  },
];

/** Where SQL lives, as the lint rules about it say. */
const sqlHome =
  'SQL lives in repositories (*.repository.ts) and db/: call a repository function (docs/architecture.md).';
/** The calls that start a query on a database handle or a transaction (a CTE starts with `with`). */
const queryStarts = [
  'with',
  'withRecursive',
  'selectFrom',
  'selectNoFrom',
  'insertInto',
  'replaceInto',
  'updateTable',
  'deleteFrom',
  'mergeInto',
];

const web = './web/src';
/** The sign-in app's folders above the flows: what the flows, the texts and the widgets never import. */
const screens = [`${web}/app/**/*`, `${web}/pages/**/*`, `${web}/main.{ts,tsx}`];
const pages = readdirSync(new URL('./web/src/pages', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** The sign-in app's walls (docs/architecture.md, "The sign-in web app"), for its shipped code (tests are exempt). */
const webZones = [
  {
    // The API layer is one typed client per region: it knows no screen, flow, text or setting.
    target: `${web}/api/**/*`,
    from: [`${web}/!(api)/**/*`, `${web}/*.{ts,tsx}`],
    message: 'api/ imports only the generated contract types (docs/architecture.md, the sign-in web app).',
  },
  {
    // Configuration is read first and knows nothing of the app, bar the list of its languages (a leaf).
    target: `${web}/config/**/*`,
    from: [`${web}/!(config|i18n)/**/*`, `${web}/i18n/!(languages).ts`, `${web}/*.{ts,tsx}`],
    message: 'config/ imports only the language list (docs/architecture.md, the sign-in web app).',
  },
  {
    target: `${web}/i18n/languages.ts`,
    from: [`${web}/**/*`],
    message: 'i18n/languages.ts is a leaf: configuration imports it (docs/architecture.md, the sign-in web app).',
  },
  {
    // The sign-in and password flows are plain TypeScript over the API and the configuration.
    target: `${web}/login/**/*`,
    from: [`${web}/{password,i18n,components}/**/*`, ...screens],
    message: 'login/ imports only api/ and config/ (docs/architecture.md, the sign-in web app).',
  },
  {
    target: `${web}/password/**/*`,
    from: [`${web}/components/**/*`, ...screens],
    message: 'password/ imports no widget and no screen (docs/architecture.md, the sign-in web app).',
  },
  {
    // Texts turn failures into messages; they know no screen, widget or password flow.
    target: `${web}/i18n/**/*`,
    from: [`${web}/{password,components}/**/*`, ...screens],
    message: 'i18n/ imports no widget, no password flow and no screen (docs/architecture.md, the sign-in web app).',
  },
  {
    // Widgets show what they are given: no calls, no flows, no screens.
    target: `${web}/components/**/*`,
    from: [`${web}/{api,login,password}/**/*`, ...screens],
    message: 'components/ imports only i18n/ and config/ (docs/architecture.md, the sign-in web app).',
  },
  {
    // Only the route table and the page loaders know the pages.
    target: `${web}/app/!(app-routes.tsx|page-loaders.ts)`,
    from: `${web}/pages/**/*`,
    message:
      'In app/, only app-routes.tsx and page-loaders.ts import pages (docs/architecture.md, the sign-in web app).',
  },
  ...pages.map((name) => ({
    // A page reaches another page only through a route; what pages share lives in app/ and below.
    target: `${web}/pages/${name}/**/*`,
    from: [`${web}/pages/!(${name})/**/*`, `${web}/app/app-routes.{ts,tsx}`, `${web}/main.{ts,tsx}`],
    message: 'A page imports no other page and not the route table (docs/architecture.md, the sign-in web app).',
  })),
  {
    // Test helpers are not shipped.
    target: `${web}/**/*`,
    from: `${web}/test/**/*`,
    message: 'Shipped code imports no test helper (docs/architecture.md, the sign-in web app).',
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
      'server/src/shared/paging{,.repository}.ts',
      'server/src/modules/groups/group-visibility.repository.ts',
    ],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['server/src/**/*.ts'],
    plugins: { 'import-x': importX, local: { rules: { 'no-import-cycle': noImportCycle } } },
    settings: {
      // The dependency graph (no-restricted-paths) reads TypeScript files with the TypeScript parser.
      'import-x/extensions': ['.ts'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'server/tsconfig.json' })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones }],
      // No cycles between files, hence none between modules (sessions <-> sso and groups <-> users were two), and
      // type-only imports count (import-x/no-cycle skips them; scripts/eslint/no-import-cycle.mjs does not).
      'local/no-import-cycle': 'error',
    },
  },
  {
    // SQL lives in repositories (`*.repository.ts`) and db/ (docs/architecture.md): elsewhere no import of Kysely
    // (its `sql` tag included, types too: db/ names the executor types), no `sql` fragment and no query built on a
    // database handle.
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/**/*.repository.ts', 'server/src/db/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'kysely', message: sqlHome }],
          patterns: [{ group: ['kysely/*'], message: sqlHome }],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: `CallExpression[callee.property.name=/^(${queryStarts.join('|')})$/]`,
          message: sqlHome,
        },
        { selector: 'TaggedTemplateExpression[tag.name="sql"]', message: sqlHome },
      ],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    ignores: ['web/src/**/*.test.{ts,tsx}', 'web/src/test/**'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'web/tsconfig.json' })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: webZones }],
      // A page is loaded on demand (app/page-loaders.ts), and what it imports may load the next page on demand in
      // turn: a loop through import() is how code splitting works. A loop of static imports is a mistake.
      'import-x/no-cycle': ['error', { ignoreExternal: true, allowUnsafeDynamicCyclicDependency: true }],
    },
  },
);
