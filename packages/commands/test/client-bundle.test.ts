/**
 * `a2a-commands/client` is browser-safe and light. Bundled and
 * minified for the browser, without the SDK (which an app ships anyway), it
 * stays within its budget, holds no schema compiler, and never builds code at
 * run time, so a strict Content-Security-Policy needs no `unsafe-eval`.
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

/** The budget for the client, minified, without `@a2a-js/sdk`. */
const BUDGET_BYTES = 20 * 1024;

const entry = fileURLToPath(new URL('../src/client/index.ts', import.meta.url));

let code = '';
let inputs: string[] = [];
beforeAll(async () => {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    external: ['@a2a-js/sdk', '@a2a-js/sdk/*'],
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  code = result.outputFiles[0]!.text;
  inputs = Object.keys(result.metafile.inputs);
});

describe('the client bundle', () => {
  it(`is at most ${BUDGET_BYTES / 1024} KB minified, without the SDK`, () => {
    const bytes = Buffer.byteLength(code);
    console.log(`a2a-commands/client: ${bytes} bytes minified (budget ${BUDGET_BYTES})`);
    expect(bytes).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it('holds no schema compiler and nothing from Node', () => {
    expect(
      inputs.filter((path) => /node_modules[\\/](ajv|fast-uri|json-schema)/.test(path)),
    ).toEqual([]);
    expect(code).not.toMatch(/from\s*"node:|require\("node:/);
  });

  it('builds no code at run time (no new Function, no eval)', () => {
    expect(code).not.toMatch(/new Function\b|\beval\(/);
  });
});
