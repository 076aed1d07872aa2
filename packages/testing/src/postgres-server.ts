/**
 * The run's test PostgreSQL server, for test files: the first call in a run
 * asks the global setup (postgres-setup.ts) to start it, and every call waits
 * until it accepts connections. Files that never call it never wait for it.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';
import { POSTGRES_REQUEST, POSTGRES_STATUS } from './postgres-context.js';

/** initdb and the first start take seconds on an idle machine, many more on a loaded one. */
const START_LIMIT_MS = 180_000;

/**
 * The server's URL (`postgres://…/postgres`), once it accepts connections.
 * `folder` is the one the global setup provides.
 */
export async function testPostgresUrl(folder = inject('postgresFolder')): Promise<string> {
  if (!folder) {
    throw new Error(
      'no test PostgreSQL server in this project: its global setup must include a2a-testing/postgres-setup',
    );
  }
  await writeFile(path.join(folder, POSTGRES_REQUEST), '', { flag: 'wx' }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    },
  );
  const deadline = Date.now() + START_LIMIT_MS;
  for (;;) {
    const status = await readFile(path.join(folder, POSTGRES_STATUS), 'utf8').catch(() => '');
    if (status.startsWith('ready ')) return status.slice('ready '.length);
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
