/**
 * Vitest global setup of the harness's integration files: one throwaway
 * PostgreSQL cluster for the run, started when the first file asks for it
 * (postgres-server.ts), so that a run of files that need no database never
 * starts one. Test processes cannot call into this one, so the ask and the
 * answer are files in a folder of its own.
 * `A2A_TEST_DATABASE_URL` points the tests at an existing server instead.
 */
import { access, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { POSTGRES_REQUEST, POSTGRES_STATUS } from './postgres-context.js';
import { launchThrowawayPostgres, type LaunchingPostgres } from './throwaway-postgres.js';
import { holdTestRun } from './test-run.js';

/** How often the folder is looked at for a file's ask. */
const ASK_POLL_MS = 100;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The cluster's files live in the run's folder, which stays until the cluster has stopped.
  const run = holdTestRun();
  const folder = await mkdtemp(path.join(os.tmpdir(), 'a2a-test-pg-'));
  // Written whole, then renamed, so a reader never sees half a status.
  const report = async (status: string) => {
    const file = path.join(folder, POSTGRES_STATUS);
    await writeFile(`${file}.tmp`, status);
    await rename(`${file}.tmp`, file);
  };
  let launching: Promise<LaunchingPostgres | undefined> | undefined;
  const launch = async (): Promise<LaunchingPostgres | undefined> => {
    const given = process.env.A2A_TEST_DATABASE_URL;
    if (given) {
      await report(`ready ${given}`);
      return undefined;
    }
    try {
      const postgres = await launchThrowawayPostgres();
      void postgres.ready.then(
        () => report(`ready ${postgres.url}`),
        (error: unknown) => report(`failed: ${describeFailure(error)}`),
      );
      return postgres;
    } catch (error) {
      await report(`failed: ${describeFailure(error)}`);
      return undefined;
    }
  };
  // Polled, not watched: file-change events are not delivered alike on every file system.
  const asked = setInterval(() => {
    if (launching) return;
    launching = access(path.join(folder, POSTGRES_REQUEST)).then(launch, () => {
      launching = undefined;
      return undefined;
    });
  }, ASK_POLL_MS);
  asked.unref();
  project.provide('postgresFolder', folder);
  return async () => {
    clearInterval(asked);
    await (await launching)?.stop();
    await rm(folder, { recursive: true, force: true });
    run.release();
  };
}

function describeFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const stderr = (error as { stderr?: unknown }).stderr;
  return stderr ? `${message}\n${String(stderr)}` : message;
}
