/**
 * A test run keeps its temporary files in a folder of its own, which goes
 * with the run: a test that leaves a database file or a process's data folder
 * behind leaves it there, not in the system's temporary folder.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  holdTestRun,
  lastingTemporaryFolder,
  TEST_RUN_ENV,
  testRunDir,
} from 'a2a-testing/test-run';

describe('a run of the repository configuration', () => {
  it('is the temporary folder of its test processes, unit tests included', () => {
    const run = process.env[TEST_RUN_ENV];
    expect(run, `${TEST_RUN_ENV} is set`).toBeTruthy();
    expect(path.basename(run!)).toMatch(/^a2a-test-run-/);
    expect(os.tmpdir()).toBe(run);
    expect(testRunDir()).toBe(run);
  });

  it('is the temporary folder of the processes they start, through the environment', () => {
    expect(process.env.TMPDIR).toBe(process.env[TEST_RUN_ENV]);
  });

  it('keeps a cache meant to outlive it in the folder it was made in', () => {
    expect(lastingTemporaryFolder()).toBe(path.dirname(process.env[TEST_RUN_ENV]!));
  });
});

describe('the run folder', () => {
  it('is shared by its holders, and goes with what was left in it when the last lets go', () => {
    const before = process.env.TMPDIR;
    const first = holdTestRun();
    const second = holdTestRun();
    try {
      expect(second.dir).toBe(first.dir);
      expect(os.tmpdir()).toBe(first.dir);
      expect(process.env.TMPDIR).toBe(first.dir);
      const leftBehind = mkdtempSync(path.join(os.tmpdir(), 'left-behind-'));
      writeFileSync(path.join(leftBehind, 'tasks.db'), 'not cleaned up by its test');

      first.release();
      first.release();
      expect(existsSync(leftBehind), 'still held by the second holder').toBe(true);
    } finally {
      second.release();
    }
    expect(existsSync(first.dir)).toBe(false);
    expect(process.env.TMPDIR).toBe(before);
  });
});
