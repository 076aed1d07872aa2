/**
 * Bins bundled for plain node: with installed packages bundled in (the tests'
 * bins, for quick starts) or left outside, loaded from node_modules as after
 * an npm install (the bench's servers, so that what it measures runs as shipped).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  binEntries,
  bundleForNode,
  linkNodeModules,
  type InstalledPackages,
} from 'a2a-testing/test-bins';
import { workspacePackageDir } from 'a2a-testing/workspace-packages';

const run = promisify(execFile);
const checkout = path.resolve(workspacePackageDir('a2a-harness'), '../..');
const folders: string[] = [];
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

/** The harness bundled into a new folder; the text of every file it wrote. */
async function bundleHarness(installed: InstalledPackages) {
  const outdir = mkdtempSync(path.join(os.tmpdir(), 'a2a-bundle-for-node-'));
  folders.push(outdir);
  await bundleForNode(binEntries('a2a-harness'), outdir, installed);
  linkNodeModules(outdir, checkout);
  const code = readdirSync(outdir)
    .filter((file) => file.endsWith('.js'))
    .map((file) => readFileSync(path.join(outdir, file), 'utf8'))
    .join('\n');
  return { outdir, code };
}

/** Module specifiers in `code` that name a file inside node_modules by its absolute path. */
const installedImports = (code: string) =>
  [...code.matchAll(/["'](\/[^"']*\/node_modules\/[^"']+)["']/g)].map((match) => match[1]!);

describe('the harness bundled with installed packages outside', () => {
  let bundle: { outdir: string; code: string };
  beforeAll(async () => {
    bundle = await bundleHarness('outside');
  });

  it('imports the SDK and Express from their installed files, not a copy of them', () => {
    const imports = installedImports(bundle.code);
    expect(imports.some((file) => file.includes('/node_modules/@a2a-js/sdk/'))).toBe(true);
    expect(imports.some((file) => file.includes('/node_modules/express/'))).toBe(true);
    for (const file of imports) expect(existsSync(file), file).toBe(true);
  });

  it('carries the workspace packages it imports as code, not as imports of their sources', () => {
    expect(bundle.code).not.toMatch(/["'][^"']*\/packages\/[a-z-]+\/src\/[^"']+["']/);
    expect(bundle.code).not.toMatch(/from ["']a2a-(commands|chat-core|acp|terminal-chat)/);
  });

  it('puts the stream worker beside the main file, where the harness starts it from', () => {
    expect(existsSync(path.join(bundle.outdir, 'stream-worker.js'))).toBe(true);
  });

  it('runs on plain node: the CLI of the sources', async () => {
    const main = path.join(bundle.outdir, 'a2a-harness.js');
    const { stdout } = await run(process.execPath, [main, '--help']);
    for (const command of ['serve', 'chat', 'send', 'acp']) expect(stdout).toContain(command);
  });
});

it('the tests’ bundle carries installed packages within it, but for those that load their own files', async () => {
  const { code } = await bundleHarness('bundled');
  const imports = installedImports(code);
  expect(imports.some((file) => file.includes('/node_modules/express/'))).toBe(false);
  expect(imports.some((file) => file.includes('/node_modules/better-sqlite3/'))).toBe(true);
});
