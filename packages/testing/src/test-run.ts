/**
 * A test run's own temporary folder: the global setup (test-run-setup.ts)
 * makes a fresh one per run, holding what is built once for the run (the
 * bundled bins, the packed packages), and removes it when the run ends. The
 * test processes, started after the setup, find it through the environment.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Set by the global setup for the test processes: the run's folder. */
export const TEST_RUN_ENV = 'A2A_TEST_RUN';

export interface TestRun {
  dir: string;
  remove(): void;
}

/** A new, empty run folder under the system's temporary folder. */
export function createTestRun(): TestRun {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'a2a-test-run-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** This run's folder, or a clear error in a project without the global setup. */
export function testRunDir(): string {
  const dir = process.env[TEST_RUN_ENV];
  if (!dir) {
    throw new Error(
      `${TEST_RUN_ENV} is not set: run this test in a project whose global setup is a2a-testing's test-run-setup.ts`,
    );
  }
  return dir;
}

/**
 * Where a test's temporary folder goes: the run's folder when the project has
 * one, which the global setup removes at the end of the run, else the system's
 * temporary folder.
 */
export function temporaryRoot(): string {
  return process.env[TEST_RUN_ENV] ?? os.tmpdir();
}
