/**
 * Every TypeScript snippet in the README compiles, as an
 * adopter would paste it. Each ```ts block becomes a module of its own and is
 * type-checked with the repository's strict settings against the library's
 * source; `declare const` in a snippet stands for what is the adopter's own.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { typescriptBlocks } from './support/markdown.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
// Under the workspace's node_modules, so that `a2a-commands` and the SDK resolve as for an adopter.
const snippetDir = join(packageDir, '..', '..', 'node_modules', '.cache', 'a2a-commands-readme');

let blocks: Array<{ line: number; code: string }> = [];
let diagnostics: Map<string, string[]>;

beforeAll(async () => {
  blocks = typescriptBlocks(await readFile(join(packageDir, 'README.md'), 'utf8'));
  await rm(snippetDir, { recursive: true, force: true });
  await mkdir(snippetDir, { recursive: true });
  const files: string[] = [];
  for (const block of blocks) {
    const file = join(snippetDir, `readme-line-${block.line}.mts`);
    // `export {}` makes even an import-free snippet a module, where top-level await is allowed.
    await writeFile(file, `${block.code}\nexport {};\n`);
    files.push(file);
  }
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    customConditions: ['a2a-source'],
    strict: true,
    noUncheckedIndexedAccess: true,
    esModuleInterop: true,
    resolveJsonModule: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  });
  diagnostics = new Map(files.map((file) => [file, []]));
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const file = diagnostic.file?.fileName ?? '';
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    const at = diagnostic.file?.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    const where = at ? `${at.line + 1}:${at.character + 1}` : '';
    const list = diagnostics.get(file) ?? diagnostics.set(file, []).get(file)!;
    list.push(`${where} TS${diagnostic.code}: ${text}`);
  }
}, 120_000);

afterAll(async () => {
  await rm(snippetDir, { recursive: true, force: true });
});

describe('README.md', () => {
  it('has TypeScript snippets to check', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(7);
  });

  it('every ```ts snippet compiles under strict settings', () => {
    const failures = [...diagnostics].filter(([, errors]) => errors.length > 0);
    expect(failures.map(([file, errors]) => `${file}\n  ${errors.join('\n  ')}`)).toEqual([]);
  });

  it('finds a broken snippet: the old client example does not compile', () => {
    const broken = `
import type { Client } from '@a2a-js/sdk/client';
import { isCommandReply, replyText, sendText } from 'a2a-commands/client';
declare const client: Client;
const task = await sendText(client, '/echo hi');
if (isCommandReply(task)) console.log(replyText(task.status?.message));
export {};
`;
    const file = join(snippetDir, 'known-broken.mts');
    return writeFile(file, broken).then(() => {
      const program = ts.createProgram([file], {
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        target: ts.ScriptTarget.ES2022,
        customConditions: ['a2a-source'],
        strict: true,
        skipLibCheck: true,
        noEmit: true,
        types: ['node'],
      });
      const codes = ts.getPreEmitDiagnostics(program).map((d) => d.code);
      // Message | Task has no `status` on Message: TS2339.
      expect(codes).toContain(2339);
    });
  }, 60_000);
});
