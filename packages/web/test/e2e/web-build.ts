/*
 * The build the harness serves at /ui in the end-to-end files: what `npm run
 * build` does for this package, made in a temporary folder, not in the
 * working tree. This module is loaded by the project's global setup too,
 * outside the test processes: it must not import vitest's test API.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { build } from 'vite';
import { lastingTemporaryFolder } from 'a2a-testing/test-run';

export const WEB_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/**
 * One per checkout, shared by the end-to-end files and kept between runs while
 * it is up to date: outside the run's own folder, which goes with the run.
 */
const BUILD_ID = createHash('sha256').update(WEB_ROOT).digest('hex').slice(0, 12);
const DIST = path.join(lastingTemporaryFolder(), `a2a-web-e2e-${BUILD_ID}`);
/** Written after a build made here; `vite build` empties its folder, so a failed build leaves none. */
const STAMP = path.join(DIST, '.e2e-build');
/** What the build is made from; `a2a-commands` is bundled from its source. */
const SOURCES = [
  'src',
  'public',
  'index.html',
  'vite.config.ts',
  'package.json',
  '../commands/src',
  '../../package-lock.json',
].map((source) => path.resolve(WEB_ROOT, source));

const LOCK = path.join(lastingTemporaryFolder(), `a2a-web-build-${BUILD_ID}.lock`);
/** A lock older than this was left by a run that died. */
const STALE_LOCK_MS = 5 * 60_000;

/** The newest modification time under `file` (directories count: a deleted file changes them). */
function newestChange(file: string): number {
  if (!existsSync(file)) return 0;
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(file).reduce(
    (newest, name) => Math.max(newest, newestChange(path.join(file, name))),
    stat.mtimeMs,
  );
}

function isUpToDate(): boolean {
  if (!existsSync(STAMP)) return false;
  return statSync(STAMP).mtimeMs >= Math.max(...SOURCES.map(newestChange));
}

/** Runs `work` while holding a lock shared by every test process on this machine. */
async function withBuildLock(work: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + 3 * 60_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const age = Date.now() - (statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true });
    else if (Date.now() > deadline) throw new Error(`Timed out waiting for the build lock ${LOCK}`);
    else await sleep(100);
  }
  try {
    await work();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/**
 * What `npm run build` does for this package, into a temporary folder; its
 * path, for the harness's `webUiDir`. The end-to-end files run in parallel
 * and all need it, so one builds while the others wait, and a build newer
 * than every source is used as it is: rebuilding would empty the folder under
 * a page another file is loading.
 */
export async function buildWebChat(): Promise<string> {
  await withBuildLock(async () => {
    if (isUpToDate()) return;
    await build({
      configFile: path.join(WEB_ROOT, 'vite.config.ts'),
      root: WEB_ROOT,
      logLevel: 'warn',
      mode: 'production',
      build: { outDir: DIST, emptyOutDir: true },
    });
    mkdirSync(DIST, { recursive: true });
    writeFileSync(STAMP, `${new Date().toISOString()}\n`);
  });
  return DIST;
}
