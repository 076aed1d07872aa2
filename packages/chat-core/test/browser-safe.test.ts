/**
 * The client core runs in the browser (the web chat) as well as in Node (the
 * terminal chat): bundled for the browser, it holds nothing from Node.
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('bundles for the browser with nothing from Node', async () => {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../src/index.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['a2a-source'],
    external: ['@a2a-js/sdk', '@a2a-js/sdk/*'],
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.text;
  expect(code).not.toMatch(/from\s*"node:|require\("node:/);
  // esbuild cannot resolve a Node built-in for the browser: the build above would throw.
  expect(Object.keys(result.metafile.inputs).some((path) => path.startsWith('node:'))).toBe(false);
});
