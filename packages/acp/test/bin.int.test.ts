/**
 * The bin lives outside dist/, so npm links it even when a fresh clone has
 * not been built: it runs the built bridge, or says how to build it.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../bin/a2a-acp.js', import.meta.url));

/** A copy of the package's bin in a fresh directory, with or without a built main. */
function layout(built: boolean): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'a2a-acp-bin-'));
  mkdirSync(path.join(dir, 'bin'));
  copyFileSync(bin, path.join(dir, 'bin', 'a2a-acp.js'));
  if (built) {
    mkdirSync(path.join(dir, 'dist', 'cli'), { recursive: true });
    writeFileSync(
      path.join(dir, 'dist', 'cli', 'main.js'),
      "process.stdout.write('built main ran with ' + process.argv.slice(2).join(' '));\n",
    );
  }
  return path.join(dir, 'bin', 'a2a-acp.js');
}

it('without a build, says how to build and exits 1, with nothing on stdout', () => {
  const run = spawnSync(process.execPath, [layout(false), 'http://127.0.0.1:8080'], {
    encoding: 'utf8',
  });
  expect(run.status).toBe(1);
  expect(run.stdout).toBe('');
  expect(run.stderr).toMatch(/a2a-acp is not built yet: run `npm run build`/);
});

it('with a build, runs the built bridge with the arguments it was given', () => {
  const run = spawnSync(process.execPath, [layout(true), 'http://127.0.0.1:8080'], {
    encoding: 'utf8',
  });
  expect(run.status).toBe(0);
  expect(run.stdout).toBe('built main ran with http://127.0.0.1:8080');
});
