#!/usr/bin/env node
// `npm run reset`: wipes the embedded databases (and development secrets) of every region under data/.
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const data = join(resolve(import.meta.dirname, '..'), 'data');
rmSync(data, { recursive: true, force: true });
console.log(`removed ${data}; the next \`npm start\` seeds fresh demo data`);
