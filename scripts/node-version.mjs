// Imported first by `npm start` and `npm test`: on a Node.js older than package.json's `engines.node` they say so in
// one line and stop, instead of failing later in a way that names something else (a region's child exiting on a
// signal, a test runner's flag it does not know).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const wanted = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')).engines.node;
const minimum = /^>=\s*(\d+)\.(\d+)/.exec(wanted);
const [major, minor] = process.versions.node.split('.').map(Number);
if (minimum && (major < Number(minimum[1]) || (major === Number(minimum[1]) && minor < Number(minimum[2])))) {
  console.error(
    `This project needs Node.js ${wanted.replace(/^>=\s*/, '')} or newer (package.json "engines"); this is ${process.version} at ${process.execPath}.`,
  );
  process.exit(1);
}
