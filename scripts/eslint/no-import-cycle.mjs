// ESLint rule: no import cycle, type-only imports included. import-x/no-cycle skips `import type` (and imports whose
// every name is a type) with no option to count them, so a cycle made of types, or of types one way and values
// the other, passed lint. Type-only cycles cost nothing at run time but they are cycles all the same: two files
// that cannot be read, changed or moved apart (docs/architecture.md, "Layers and allowed arrows").
//
// The graph is every relative import, export-from and `import x = require()` of the files on disk, read with
// TypeScript's own pre-processor (cached for the ESLint process); the file being linted contributes the imports of
// the text being linted, so a fixture linted as if it lived at a path is checked as that file. Packages are
// leaves: a cycle never runs through node_modules.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';

const extensions = ['', '.ts', '.tsx', '.d.ts', '/index.ts', '/index.tsx'];
const importsOnDisk = new Map();

function resolveImport(from, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier);
  for (const extension of extensions) {
    const candidate = base + extension;
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function importsOf(file) {
  let targets = importsOnDisk.get(file);
  if (!targets) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, false);
    targets = [...new Set(importedFiles.map((f) => resolveImport(file, f.fileName)).filter(Boolean))];
    importsOnDisk.set(file, targets);
  }
  return targets;
}

/** The shortest chain of imports from `start` to `goal` ([start, …, goal]), or null. */
function chain(start, goal) {
  const cameFrom = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift();
    if (file === goal) {
      const path = [];
      for (let at = file; at !== null; at = cameFrom.get(at)) path.unshift(at);
      return path;
    }
    for (const next of importsOf(file)) {
      if (!cameFrom.has(next)) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  return null;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import cycles, counting type-only imports' },
    messages: { cycle: 'Import cycle (type-only imports count): {{route}}' },
    schema: [],
  },
  create(context) {
    const file = context.physicalFilename;
    if (!file || file === '<text>') return {};
    const check = (node, specifier) => {
      if (typeof specifier !== 'string') return;
      const target = resolveImport(file, specifier);
      if (!target || target === file) return;
      const route = chain(target, file);
      if (route) {
        const names = [file, ...route].map((p) => relative(context.cwd, p));
        context.report({ node, messageId: 'cycle', data: { route: names.join(' → ') } });
      }
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      TSImportEqualsDeclaration: (node) =>
        node.moduleReference.type === 'TSExternalModuleReference' && check(node, node.moduleReference.expression.value),
    };
  },
};
