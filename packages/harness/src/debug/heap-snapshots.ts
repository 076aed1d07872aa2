import { renameSync } from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import type { Logger } from 'pino';

/** The environment variable that turns the hook on: the directory snapshots go to. */
export const HEAP_SNAPSHOT_DIR_ENV = 'HARNESS_HEAP_SNAPSHOT_DIR';

/**
 * A debugging hook, off unless `HARNESS_HEAP_SNAPSHOT_DIR` is set: on SIGUSR2
 * the process collects garbage (when started with `--expose-gc`) and writes a
 * heap snapshot there, named `heap-<n>.heapsnapshot` once it is complete, so
 * that a script can wait for the name (bench/heap.ts does).
 */
export function heapSnapshotsOnSignal(env: NodeJS.ProcessEnv, logger: Logger): void {
  const dir = env[HEAP_SNAPSHOT_DIR_ENV];
  if (!dir) return;
  let taken = 0;
  process.on('SIGUSR2', () => {
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const file = path.join(dir, `heap-${++taken}.heapsnapshot`);
    // Written under another name first: the final name appears only when the file is whole.
    renameSync(v8.writeHeapSnapshot(`${file}.partial`), file);
    logger.info({ file, collected: gc !== undefined }, 'heap snapshot written');
  });
  logger.info({ dir }, `heap snapshots on SIGUSR2 (${HEAP_SNAPSHOT_DIR_ENV})`);
}
