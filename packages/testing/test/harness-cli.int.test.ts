/**
 * The harness CLI that integration tests start is bundled fresh from the
 * sources on every build, so a test can never run yesterday's code.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { buildHarnessCli, type HarnessCliBundle } from 'a2a-testing/harness-cli';

const built: HarnessCliBundle[] = [];
afterAll(() => built.forEach((bundle) => bundle.remove()));

async function build(): Promise<HarnessCliBundle> {
  const bundle = await buildHarnessCli();
  built.push(bundle);
  return bundle;
}

it('each build goes to a folder of its own, and removing it leaves nothing behind', async () => {
  const [first, second] = [await build(), await build()];
  expect(path.dirname(first.main)).not.toBe(path.dirname(second.main));
  first.remove();
  expect(existsSync(path.dirname(first.main))).toBe(false);
  expect(existsSync(second.main)).toBe(true);
});

it('runs on plain node and is the CLI of the sources: its version and its commands', async () => {
  const { main } = await build();
  const run = (...args: string[]) => promisify(execFile)(process.execPath, [main, ...args]);
  const harnessPackage = createRequire(import.meta.url).resolve('a2a-harness/package.json');
  const { version } = JSON.parse(readFileSync(harnessPackage, 'utf8')) as { version: string };
  expect((await run('--version')).stdout.trim()).toBe(version);
  const help = (await run('--help')).stdout;
  for (const command of ['serve', 'chat', 'send', 'acp']) expect(help).toContain(command);
});
