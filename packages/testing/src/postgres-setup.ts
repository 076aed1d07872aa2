/**
 * Vitest global setup of the project whose files use PostgreSQL: one
 * throwaway cluster for the run. It does not wait for the cluster: the URL is
 * provided at once and each file waits in `postgres-ready.ts`, so the start
 * overlaps with the files of the other projects instead of holding them up.
 * `A2A_TEST_DATABASE_URL` points the tests at an existing server instead.
 */
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import type {} from './postgres-context.js';
import { launchThrowawayPostgres } from './throwaway-postgres.js';
import { holdTestRun } from './test-run.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The cluster's files live in the run's folder, which stays until the cluster has stopped.
  const run = holdTestRun();
  const statusDir = await mkdtemp(path.join(os.tmpdir(), 'a2a-test-pg-status-'));
  const statusFile = path.join(statusDir, 'status');
  // Written whole, then renamed, so a reader never sees half a status.
  const report = async (status: string) => {
    await writeFile(`${statusFile}.tmp`, status);
    await rename(`${statusFile}.tmp`, statusFile);
  };
  const removeStatus = async () => {
    await rm(statusDir, { recursive: true, force: true });
    run.release();
  };
  project.provide('postgresStatusFile', statusFile);

  if (process.env.A2A_TEST_DATABASE_URL) {
    project.provide('postgresUrl', process.env.A2A_TEST_DATABASE_URL);
    await report('ready');
    return removeStatus;
  }
  const postgres = await launchThrowawayPostgres().catch(async (error: unknown) => {
    await removeStatus();
    throw error;
  });
  project.provide('postgresUrl', postgres.url);
  void postgres.ready.then(
    () => report('ready'),
    (error: unknown) => report(`failed: ${describeFailure(error)}`),
  );
  return async () => {
    await postgres.stop();
    await removeStatus();
  };
}

function describeFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const stderr = (error as { stderr?: unknown }).stderr;
  return stderr ? `${message}\n${String(stderr)}` : message;
}
