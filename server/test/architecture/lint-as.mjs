// Lints fixture texts as if each lived at a given path of the repository, in one ESLint run (starting ESLint and
// its TypeScript resolver costs seconds; the web walls have many cases). Reads [{ fixture, asFile }] as JSON on
// stdin, writes each case's messages ({ ruleId, message }[]) as a JSON array on stdout, in the same order.
import { readFileSync } from 'node:fs';
import { ESLint } from 'eslint';

const root = new URL('../../../', import.meta.url);
const fixtures = new URL('./fixtures/', import.meta.url);
const cases = JSON.parse(readFileSync(0, 'utf8'));
const eslint = new ESLint({ cwd: root.pathname });
const answers = [];
for (const { fixture, asFile } of cases) {
  const text = readFileSync(new URL(fixture, fixtures), 'utf8');
  const [result] = await eslint.lintText(text, { filePath: new URL(asFile, root).pathname });
  answers.push(result.messages.map(({ ruleId, message }) => ({ ruleId, message })));
}
process.stdout.write(JSON.stringify(answers));
