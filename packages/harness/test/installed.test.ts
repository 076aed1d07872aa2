/**
 * The harness as npm ships it, outside this repository: the workspace
 * packages it needs are built and packed once for the run in a temporary
 * folder, installed
 * from their tarballs into a new project there, and the installed CLI serves
 * the web chat at /ui, which Chromium opens and chats through.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { lstatSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from 'a2a-testing/chromium';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installInProject, type Packed } from 'a2a-testing/packing';
import { packedForRun } from 'a2a-testing/run-packs';
import { spawnInstalledHarness, type HarnessProcess } from 'a2a-testing/process';

/** What a2a-harness needs from the workspace: none of them is on the registry. */
const PACKAGES = [
  'a2a-commands',
  'a2a-chat-core',
  'a2a-acp',
  'a2a-terminal-chat',
  'a2a-web-chat',
  'a2a-harness',
];

/** Five builds, a Vite build and an npm install: minutes on a loaded 2-core machine. */
const SETUP_LIMIT_MS = 15 * 60_000;

let work: string;
let project: string;
let packed: Packed[];
let harness: HarnessProcess | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'a2a-harness-installed-'));
  project = path.join(work, 'project');
  // Each builds from its own sources, so they can build side by side.
  packed = await packedForRun(PACKAGES);
  await installInProject(project, packed, { nativeFromWorkspace: ['better-sqlite3'] });
  harness = await spawnInstalledHarness(project, ['--data', path.join(work, 'data')]);
  browser = await chromium.launch({ executablePath: chromiumPath(), args: [...CHROMIUM_ARGS] });
}, SETUP_LIMIT_MS);

afterAll(async () => {
  await browser?.close();
  harness?.child.kill();
  await harness?.exited;
  if (work) await rm(work, { recursive: true, force: true });
});

describe('a2a-harness installed from its tarball', () => {
  it('ships its build and the web chat ships its page, with no test file', () => {
    const files = (name: string) => packed.find((each) => each.name === name)!.files;
    expect(files('a2a-harness')).toContain('dist/cli/main.js');
    expect(files('a2a-harness')).toContain('bin/a2a-harness.js');
    expect(files('a2a-web-chat')).toContain('dist/index.html');
    const tests = packed.flatMap((each) => each.files.filter((file) => /\.test\./.test(file)));
    expect(tests).toEqual([]);
  });

  it('is installed as files in a project outside the workspace, not as links to it', () => {
    expect(path.relative(process.cwd(), project).startsWith('..')).toBe(true);
    for (const name of PACKAGES) {
      expect(lstatSync(path.join(project, 'node_modules', name)).isSymbolicLink()).toBe(false);
    }
  });

  it('serves the installed web chat at /ui', async () => {
    const response = await fetch(`${harness!.url}/ui/`);
    expect(response.status).toBe(200);
    const shipped = await readFile(
      path.join(project, 'node_modules', 'a2a-web-chat', 'dist', 'index.html'),
      'utf8',
    );
    expect(await response.text()).toBe(shipped);
  });

  it('opens in Chromium, and a message gets the offline model answer', async () => {
    const page = await browser!.newPage();
    try {
      await page.goto(`${harness!.url}/ui/`);
      const composer = page.getByRole('combobox', { name: 'Message' });
      await composer.fill('Hello from the installed harness');
      await composer.press('Enter');
      await expect
        .poll(() => page.getByText('This is the offline model', { exact: false }).count(), {
          timeout: 30_000,
        })
        .toBeGreaterThan(0);
    } finally {
      await page.close();
    }
  }, 60_000);
});
