/**
 * `npx a2a-commands` inside the repository: npm links a bin at install time
 * only if its file exists then, so the bin must be a committed file, and it
 * must run before anything is built.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrokenAgent } from './support/broken-agent.js';
import { packageDir, runProcess } from './support/cli.js';
import type { Listening } from 'a2a-testing/http';

const run = promisify(execFile);
const repoRoot = join(packageDir, '..', '..');

let agent: Listening;
beforeAll(async () => {
  agent = await startBrokenAgent();
});
afterAll(() => agent.close());

describe('the a2a-commands bin', () => {
  it('is a file git tracks, so a fresh clone has it when npm installs', async () => {
    const manifest = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
      files: string[];
    };
    const target = manifest.bin['a2a-commands']!;
    const { stdout } = await run('git', ['ls-files', '--error-unmatch', target], {
      cwd: packageDir,
    });
    expect(stdout.trim()).toBe(target.replace(/^\.\//, ''));
    expect(manifest.files).toContain(target.split('/')[1]);
  });

  it('runs the checker from the tracked files alone, with no dist/', async () => {
    // Inside the repository's node_modules, so the workspace's packages resolve as in a clone.
    const parent = join(repoRoot, 'node_modules', '.cache');
    await mkdir(parent, { recursive: true });
    const fresh = await mkdtemp(join(parent, 'a2a-commands-fresh-'));
    try {
      const { stdout } = await run('git', ['ls-files', '-z', '.'], { cwd: packageDir });
      const tracked = stdout.split('\0').filter(Boolean);
      expect(tracked.some((file) => file.startsWith('dist/'))).toBe(false);
      for (const file of tracked) {
        await mkdir(dirname(join(fresh, file)), { recursive: true });
        await cp(join(packageDir, file), join(fresh, file));
      }
      const checked = await runProcess(
        process.execPath,
        [join(fresh, 'bin', 'a2a-commands.js'), 'check', agent.baseUrl, '--no-model'],
        { cwd: fresh },
      );
      expect(checked.stderr).toBe('');
      expect(checked.stdout).toMatch(/^a2a-commands check http:\/\/127\.0\.0\.1:/);
      expect(checked.stdout).toMatch(/passed, 0 failed/);
      expect(checked.code).toBe(0);
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  });

  it('is what `npx a2a-commands` runs from the repository root', async () => {
    const checked = await runProcess('npx', ['--no-install', 'a2a-commands', '--help'], {
      cwd: repoRoot,
    });
    expect(checked.code).toBe(0);
    expect(checked.stdout).toMatch(/^Usage: a2a-commands check <url>/);
  });
});
