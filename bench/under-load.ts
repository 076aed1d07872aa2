/**
 * A quick look at `/help` while turns stream, for profiling while it changes:
 * the p50 of sequential `/help` calls idle and while `--tasks` tasks stream
 * turns from the offline model (`--token-ms` a token), in alternating rounds
 * (`--calls` each), as in `npm run bench`'s under-load section, and the CPU the
 * harness used a streamed turn.
 *
 *   node --conditions=a2a-source --import tsx bench/under-load.ts [--tasks 50]
 *     [--token-ms 5] [--rounds 5] [--calls 100] [--profile <dir>]
 *
 * Not a benchmark: `npm run bench` is the one whose figures count.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Endpoint, sendCall } from './lib/load.js';
import { startServer } from './lib/servers.js';
import { newTask } from './sections/round-trip.js';
import { commandUnderLoad } from './sections/under-load.js';
import { scratchDir } from './lib/scratch.js';

const option = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
};
const tasks = Number(option('tasks', '50'));
const tokenMs = Number(option('token-ms', '5'));
const calls = Number(option('calls', '100'));
const rounds = Number(option('rounds', '5'));
const profileDir = option('profile', '');

const tmp = (name: string) => scratchDir(`under-load-${name}`);
const config = path.join(tmp('config'), 'harness.json');
writeFileSync(config, JSON.stringify({ offline: { latencyMs: tokenMs } }));

/** CPU time the process has used, in ms (clock ticks of 10 ms). */
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

const server = await startServer(
  'load',
  'packages/harness/src/cli/main.ts',
  ['serve', '--port', '0', '--data', tmp('data'), '--config', config],
  {},
  profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
);
try {
  const rpc = new Endpoint(`${server.url}/a2a/jsonrpc`);
  const taskIds = await Promise.all(Array.from({ length: tasks }, () => newTask(rpc)));
  const cpuBefore = cpuMs(server.child.pid!);
  const result = await commandUnderLoad(server.url, sendCall(rpc, '/help'), taskIds, {
    rounds,
    calls,
  });
  const cpu = cpuMs(server.child.pid!) - cpuBefore;
  rpc.close();
  const idle = result.idleP50.median;
  const busy = result.busyP50.median;
  console.log(
    `/help p50 idle ${idle.toFixed(3)} ms, under load ${busy.toFixed(3)} ms: ${(busy / idle).toFixed(2)} × idle (target ≤ 1.5); rounds ${result.busyP50.rounds.map((b, i) => (b / result.idleP50.rounds[i]!).toFixed(2)).join(', ')}`,
  );
  console.log(
    `${result.turns} turns while measuring; harness CPU ${(cpu / Math.max(result.turns, 1)).toFixed(1)} ms a turn (the /help calls included)`,
  );
} finally {
  await server.stop();
}
