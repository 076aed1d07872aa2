/**
 * The memory question, settled with heap snapshots: the harness (started with
 * --expose-gc and its SIGUSR2 snapshot hook) answers `/help` on new tasks, as
 * bench's memory section sends them; after a warm-up, after 50,000 and after
 * 100,000 commands it collects garbage and writes a heap snapshot. The
 * snapshots are compared by constructor, with RSS beside them.
 *
 *   node --conditions=a2a-source --import tsx bench/heap.ts [--counts 1000,50000,100000]
 *     [--keep <dir>] [--on-task]
 *
 * `--on-task` sends `/model` to one task instead, as the memory section's
 * commands after its first step do, so the one task's history grows.
 * `--keep <dir>` leaves the snapshots there (they are large) for DevTools.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { heapByConstructor, heapGrowth, heapTotal, type HeapGroup } from './lib/heap-snapshot.js';
import { Endpoint, sendCall } from './lib/load.js';
import { startServer } from './lib/servers.js';
import { newTask } from './sections/round-trip.js';
import { scratchDir } from './lib/scratch.js';

const option = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
};
const counts = option('counts', '1000,50000,100000').split(',').map(Number);
const snapshotDir = option('keep', '') || scratchDir('heap');
const MiB = 1024 * 1024;

const server = await startServer(
  'heap',
  'packages/harness/src/cli/main.ts',
  ['serve', '--port', '0', '--data', scratchDir('heap-data'), '--log-level', 'warn'],
  { HARNESS_HEAP_SNAPSHOT_DIR: snapshotDir },
  ['--expose-gc'],
);
const endpoint = new Endpoint(`${server.url}/a2a/jsonrpc`, 128);
const help = process.argv.includes('--on-task')
  ? sendCall(endpoint, '/model', await newTask(endpoint))
  : sendCall(endpoint, '/help');

/** `count` commands, 64 in flight. */
async function send(count: number): Promise<void> {
  let next = 0;
  let failed = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      if (!(await help().catch(() => false))) failed++;
    }
  };
  await Promise.all(Array.from({ length: 64 }, worker));
  if (failed > 0) console.log(`[heap] ${failed} calls failed`);
}

/** Asks for a snapshot and waits until the hook has renamed it into place. */
async function snapshot(n: number): Promise<string> {
  const file = path.join(snapshotDir, `heap-${n}.heapsnapshot`);
  server.child.kill('SIGUSR2');
  const deadline = Date.now() + 300_000;
  while (!existsSync(file)) {
    if (Date.now() > deadline)
      throw new Error(`no ${file}: ${readdirSync(snapshotDir).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return file;
}

const points: { commands: number; rssMiB: number; heap: Map<string, HeapGroup> }[] = [];
try {
  let sent = 0;
  for (const [i, count] of counts.entries()) {
    const started = performance.now();
    await send(count - sent);
    sent = count;
    const seconds = (performance.now() - started) / 1000;
    const file = await snapshot(i + 1);
    const rssMiB = server.rssMiB();
    const heap = heapByConstructor(file);
    points.push({ commands: count, rssMiB, heap });
    console.log(
      `[heap] ${count} commands (${seconds.toFixed(0)} s): RSS ${rssMiB.toFixed(1)} MiB, heap after GC ${(heapTotal(heap) / MiB).toFixed(2)} MiB (${file})`,
    );
  }
  for (let i = 1; i < points.length; i++) {
    const [before, after] = [points[i - 1]!, points[i]!];
    const grown = heapTotal(after.heap) - heapTotal(before.heap);
    console.log(
      `\n[heap] ${before.commands} → ${after.commands} commands: heap ${grown >= 0 ? '+' : ''}${(grown / 1024).toFixed(0)} KiB, RSS ${(((after.rssMiB - before.rssMiB) / before.rssMiB) * 100).toFixed(1)}%; grew most, by constructor:`,
    );
    for (const g of heapGrowth(before.heap, after.heap, 15)) {
      console.log(
        `  ${(g.bytes / 1024).toFixed(1).padStart(9)} KiB ${String(g.count).padStart(8)} objects  ${g.name}  (now ${g.countAfter}, ${(g.bytesAfter / 1024).toFixed(0)} KiB)`,
      );
    }
  }
} finally {
  endpoint.close();
  await server.stop();
}
