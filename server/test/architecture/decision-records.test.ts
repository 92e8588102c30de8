// The decision records (docs/decisions/, indexed by docs/decisions.md) are one file per decision, each with a date,
// a status, its context, decision and alternatives; a record is superseded rather than rewritten. An accepted
// record that names a file which no longer exists describes code that is not there, so every file path an accepted
// record cites must exist (a superseded record is history and may name files since removed).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const folder = join(root, 'docs', 'decisions');
const names = readdirSync(folder)
  .filter((name) => name.endsWith('.md'))
  .sort();
const records = names.map((name) => ({ name, text: readFileSync(join(folder, name), 'utf8') }));

/** Folders a record's short paths are relative to (`http/admission.ts` is the server's, `app/` the web app's). */
const bases = ['', 'server/src/', 'server/', 'web/src/', 'web/', 'server/test/'];
/** What a build or a run makes: cited, never committed. */
const madeLater = ['server/dist', 'web/dist', 'web/build', 'node_modules', 'reports'];
const repositoryFolders = ['server', 'web', 'scripts', 'docs', 'openapi', 'generated', 'patches', '.ci'];
const fileExtension = /\.(d\.ts|ts|tsx|mts|mjs|cjs|js|json|md|yaml|yml|patch|conf|template|html|sh|sql)$/;
const tracked = new Set(
  execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .map((file) => basename(file)),
);

/** The file paths a text cites: code spans that name a file or a folder of this repository. */
function citedPaths(text: string): string[] {
  const paths = new Set<string>();
  for (const [, span] of text.matchAll(/`([^`\n]+)`/g)) {
    const path = span.trim();
    if (!/^[\w.@+-]+(\/[\w.@+-]+)*\/?$/.test(path) || path.startsWith('@')) continue;
    const inFolder = path.includes('/');
    if (inFolder && !fileExtension.test(path) && !path.endsWith('/') && !repositoryFolders.includes(path.split('/')[0]))
      continue; // a media type (application/scim+json), a URL path
    if (!inFolder && !fileExtension.test(path)) continue;
    paths.add(path);
  }
  return [...paths];
}

function exists(path: string): boolean {
  if (madeLater.some((folder) => path === folder || path.startsWith(`${folder}/`))) return true;
  if (!path.includes('/')) return tracked.has(path);
  return bases.some((base) => existsSync(join(root, base, path)));
}

describe('decision records', () => {
  test('there are records, and the index links every one of them and nothing else', () => {
    expect(names.length).toBeGreaterThan(100);
    const index = readFileSync(join(root, 'docs', 'decisions.md'), 'utf8');
    const linked = [...index.matchAll(/\]\(decisions\/([^)]+)\)/g)].map(([, name]) => name).sort();
    expect(linked).toEqual(names);
  });

  test.each(records)('$name has a date, a status, context, decision and alternatives', ({ name, text }) => {
    const date = /^- Date: (\d{4}-\d{2}-\d{2})$/m.exec(text)?.[1];
    expect(name.startsWith(`${date}-`)).toBe(true);
    expect(text).toMatch(/^# \S/);
    expect(text).toMatch(/^- Status: (accepted|superseded (in part )?by \[[^\]]+\]\([^)]+\.md\).*)$/m);
    for (const heading of ['## Context', '## Decision', '## Alternatives']) expect(text).toContain(`\n${heading}\n`);
  });

  test('every link between records leads to a record, and a supersession is stated on both sides', () => {
    for (const { name, text } of records) {
      for (const [, target] of text.matchAll(/\]\(([^)]+\.md)\)/g))
        expect([name, names.includes(target)]).toEqual([name, true]);
      for (const [, target] of text.matchAll(/^- Supersedes(?: in part)?: \[[^\]]+\]\(([^)]+)\)/gm)) {
        const older = records.find((record) => record.name === target)!;
        expect([target, older.text]).toEqual([target, expect.stringMatching(new RegExp(`superseded .*\\(${name}\\)`))]);
      }
    }
  });

  test('every file path an accepted record cites exists', () => {
    const missing = records
      .filter(({ text }) => /^- Status: accepted$/m.test(text))
      .flatMap(({ name, text }) =>
        citedPaths(text.replace(/^[\s\S]*?\n## Context\n/, ''))
          .filter((path) => !exists(path))
          .map((path) => `${name}: ${path}`),
      );
    expect(missing).toEqual([]);
  });

  test('the path check finds a missing file', () => {
    const cited = citedPaths('See `server/src/http/pressure.ts`, `http/admission.ts`, `application/scim+json`.');
    expect(cited).toEqual(['server/src/http/pressure.ts', 'http/admission.ts']);
    expect(cited.map(exists)).toEqual([false, true]);
  });
});
