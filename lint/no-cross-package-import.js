/**
 * ESLint rule: a relative import must stay inside its own package. Packages
 * use each other by name, through what each one exports, so a package works
 * the same installed as in this repository. A package is the nearest folder
 * with a package.json; the repository root (bench/, configs) is one too.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

const roots = new Map();

/** The nearest folder at or above `dir` that holds a package.json. */
function packageRootOf(dir) {
  if (roots.has(dir)) return roots.get(dir);
  const parent = path.dirname(dir);
  const root =
    existsSync(path.join(dir, 'package.json')) || parent === dir ? dir : packageRootOf(parent);
  roots.set(dir, root);
  return root;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: "Forbid relative imports that reach into another package's files" },
    messages: {
      crossing:
        "'{{source}}' reaches into another package ({{target}}): import it by its package name, from what that package exports.",
    },
    schema: [],
  },
  create(context) {
    const here = path.dirname(context.filename);
    const own = packageRootOf(here);
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = packageRootOf(path.dirname(path.resolve(here, source)));
      if (target === own) return;
      const name = path.relative(context.cwd, target) || 'the repository root';
      context.report({ node: node.source, messageId: 'crossing', data: { source, target: name } });
    };
    return {
      ImportDeclaration: check,
      ExportAllDeclaration: check,
      ExportNamedDeclaration: check,
      ImportExpression: check,
    };
  },
};
