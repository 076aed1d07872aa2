/**
 * A quick look at `/help` while turns stream, for profiling while it changes:
 * the p50 of sequential `/help` calls idle, then while `--tasks` tasks stream
 * turns from the offline model (`--token-ms` a token), as in `npm run bench`'s
 * under-load section, and the CPU the harness used a streamed turn.
 *
 *   node --conditions=a2a-source --import tsx bench/under-load.ts [--tasks 50]
 *     [--token-ms 5] [--calls 300] [--profile <dir>]
 *
 * Not a benchmark: `npm run bench` is the one whose figures count.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Endpoint, sendCall, sequential } from './lib/load.js';
import { startServer } from './lib/servers.js';
import { newTask } from './sections/round-trip.js';
import { streamingLoad } from './sections/under-load.js';

const option = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
};
const tasks = Number(option('tasks', '50'));
const tokenMs = Number(option('token-ms', '5'));
const calls = Number(option('calls', '300'));
const profileDir = option('profile', '');

const tmp = (name: string) => mkdtempSync(path.join(os.tmpdir(), `a2a-under-load-${name}-`));
const config = path.join(tmp('config'), 'harness.json');
writeFileSync(config, JSON.stringify({ offline: { latencyMs: tokenMs } }));

/** CPU time the process has used, in ms (clock ticks of 10 ms). */
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const p50 = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;

const server = await startServer(
  'load',
  'packages/harness/src/cli/main.ts',
  ['serve', '--port', '0', '--data', tmp('data'), '--config', config],
  {},
  profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
);
try {
  const rpc = new Endpoint(`${server.url}/a2a/jsonrpc`);
  const help = sendCall(rpc, '/help');
  await sequential(help, 50);
  const idle = p50(await sequential(help, calls));
  const taskIds = await Promise.all(Array.from({ length: tasks }, () => newTask(rpc)));
  const load = streamingLoad(server.url, taskIds);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const cpuBefore = cpuMs(server.child.pid!);
  const busy = p50(await sequential(help, calls));
  const cpu = cpuMs(server.child.pid!) - cpuBefore;
  const turns = await load.stop();
  rpc.close();
  console.log(
    `/help p50 idle ${idle.toFixed(3)} ms, under load ${busy.toFixed(3)} ms: ${(busy / idle).toFixed(2)} × idle (target ≤ 1.5)`,
  );
  console.log(
    `${turns} turns while measuring; harness CPU ${(cpu / Math.max(turns, 1)).toFixed(1)} ms a turn`,
  );
} finally {
  await server.stop();
}
