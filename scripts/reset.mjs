#!/usr/bin/env node
// `npm run reset`: wipes the embedded databases (and development secrets) of every region under the data folder:
// data/, or the folder DATA_ROOT names (as `npm start` reads it).
import { rmSync } from 'node:fs';
import { parse, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const data = resolve(root, process.env.DATA_ROOT || 'data');
if (data === root || data === parse(data).root) {
  console.error(`DATA_ROOT=${process.env.DATA_ROOT} names the repository or the filesystem root: nothing removed`);
  process.exit(1);
}
rmSync(data, { recursive: true, force: true });
console.log(`removed ${data}; the next \`npm start\` seeds fresh demo data`);
