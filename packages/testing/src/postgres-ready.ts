/**
 * Vitest setup file of the project whose files use PostgreSQL: waits until
 * the cluster the global setup launched accepts connections. Files of other
 * projects never load it, so they never wait for the database.
 */
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';
import type {} from './postgres-context.js';

/** initdb and the first start take seconds on an idle machine, many more on a loaded one. */
const START_LIMIT_MS = 180_000;

async function waitForPostgres(): Promise<void> {
  const statusFile = inject('postgresStatusFile');
  const deadline = Date.now() + START_LIMIT_MS;
  for (;;) {
    const status = await readFile(statusFile, 'utf8').catch(() => '');
    if (status === 'ready') return;
    if (status.startsWith('failed: ')) {
      throw new Error(
        `the test PostgreSQL server did not start: ${status.slice('failed: '.length)}`,
      );
    }
    if (Date.now() > deadline) {
      throw new Error(`the test PostgreSQL server was not ready after ${START_LIMIT_MS / 1000} s`);
    }
    await sleep(50);
  }
}

await waitForPostgres();
