/**
 * A test run's own temporary folder. The first global setup of the run to
 * hold it (every run has one: the root configuration's, test-run-folder-setup.ts)
 * makes it, and makes it the temporary folder (`TMPDIR`) of everything started
 * afterwards: the test processes, and the harnesses, databases and browsers
 * they start. So whatever a test leaves in the temporary folder (a database
 * file, a process's data folder, the files of a process that was killed) goes
 * with the run: the folder is removed when its last holder lets go, after the
 * last file. What is built once for the run (the bundled bins, the packed
 * packages) lives there too.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Set for the test processes while a run holds its folder: the folder. */
export const TEST_RUN_ENV = 'A2A_TEST_RUN';

export interface TestRun {
  dir: string;
  remove(): void;
}

/** A new, empty folder under the temporary folder, apart from any run's. */
export function createTestRun(): TestRun {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'a2a-test-run-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface HeldTestRun {
  dir: string;
  /** Lets go of the folder; the last holder to let go removes it. */
  release(): void;
}

interface Held {
  dir: string;
  holders: number;
  tmpdirBefore: string | undefined;
}

// Global setups of several projects run in the one vitest process, each
// loading this module on its own: the folder is shared through a global.
const HELD = Symbol.for('a2a-testing.test-run-folder');
type Shared = { [HELD]?: Held };

/** The run's folder, made by the first holder of this process; see above. */
export function holdTestRun(): HeldTestRun {
  const shared = globalThis as Shared;
  let held = shared[HELD];
  if (!held) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'a2a-test-run-'));
    // Open to other users as the system's temporary folder is: the test
    // PostgreSQL runs as its own user (throwaway-postgres.ts). What is made
    // inside with mkdtemp is private, as anywhere else.
    chmodSync(dir, 0o755);
    held = { dir, holders: 0, tmpdirBefore: process.env.TMPDIR };
    shared[HELD] = held;
    process.env.TMPDIR = dir;
    process.env[TEST_RUN_ENV] = dir;
  }
  const own = held;
  own.holders += 1;
  let released = false;
  return {
    dir: own.dir,
    release: () => {
      if (released) return;
      released = true;
      own.holders -= 1;
      if (own.holders > 0) return;
      delete shared[HELD];
      if (own.tmpdirBefore === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = own.tmpdirBefore;
      delete process.env[TEST_RUN_ENV];
      rmSync(own.dir, { recursive: true, force: true });
    },
  };
}

/** This run's folder, or a clear error outside a run that holds one. */
export function testRunDir(): string {
  const dir = process.env[TEST_RUN_ENV];
  if (!dir) {
    throw new Error(
      `${TEST_RUN_ENV} is not set: run this test through vitest with the repository's configuration, whose global setup holds the run's folder`,
    );
  }
  return dir;
}

/**
 * The temporary folder that outlives the run (the one the run's folder was
 * made in): for a cache meant to be kept from one run to the next.
 */
export function lastingTemporaryFolder(): string {
  const dir = process.env[TEST_RUN_ENV];
  return dir ? path.dirname(dir) : os.tmpdir();
}
