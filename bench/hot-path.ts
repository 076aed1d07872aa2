/**
 * A quick look at the command path alone, for profiling while it changes:
 * A (the bare SDK agent) and C (the harness answering `/help` on new tasks)
 * and D (`/model` on one task), side by side in alternating rounds, as ratios.
 *
 *   node --conditions=a2a-source --import tsx bench/hot-path.ts [--rounds 3] [--seconds 3]
 *     [--in-flight 32] [--profile <dir>]
 *
 * `--profile <dir>` starts the harness with `--cpu-prof` and leaves the profile there.
 * Not a benchmark: `npm run bench` is the one whose figures count.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Endpoint, sendCall, throughput } from './lib/load.js';
import { startServer } from './lib/servers.js';
import { newTask } from './sections/round-trip.js';

const option = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
};
const rounds = Number(option('rounds', '3'));
const seconds = Number(option('seconds', '3'));
const inFlight = Number(option('in-flight', '32'));
const profileDir = option('profile', '');

const a = await startServer('A', 'bench/servers/bare-agent.ts', []);
const c = await startServer(
  'C',
  'packages/harness/src/cli/main.ts',
  [
    'serve',
    '--port',
    '0',
    '--data',
    mkdtempSync(path.join(os.tmpdir(), 'a2a-hot-path-')),
    '--log-level',
    'info',
  ],
  {},
  profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
);
const aRpc = new Endpoint(`${a.url}/a2a/jsonrpc`);
const cRpc = new Endpoint(`${c.url}/a2a/jsonrpc`);
const dTask = await newTask(cRpc, '/help');
const subjects = [
  { name: 'A', call: sendCall(aRpc, 'hello') },
  { name: 'C', call: sendCall(cRpc, '/help') },
  { name: 'D', call: sendCall(cRpc, '/model', dTask) },
];
const results: Record<string, number[]> = { A: [], C: [], D: [] };
try {
  // Warm-up, then rounds in turn, so that the machine's noise falls on all alike.
  for (const s of subjects) await throughput(s.call, inFlight, 1000);
  for (let round = 0; round < rounds; round++) {
    for (const s of subjects) {
      const { perSecond, errors } = await throughput(s.call, inFlight, seconds * 1000);
      if (errors > 0) console.log(`${s.name}: ${errors} failed calls`);
      results[s.name]!.push(perSecond);
    }
    const line = subjects
      .map((s) => `${s.name} ${results[s.name]!.at(-1)!.toFixed(0)}/s`)
      .join('  ');
    const ratios = ['C', 'D']
      .map((n) => `${n}÷A ${(results[n]!.at(-1)! / results.A!.at(-1)!).toFixed(3)}`)
      .join('  ');
    console.log(`round ${round + 1}: ${line}  ${ratios}`);
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  const ratioOfMedians = (n: string) => (median(results[n]!) / median(results.A!)).toFixed(3);
  console.log(`median @${inFlight}: C÷A ${ratioOfMedians('C')}  D÷A ${ratioOfMedians('D')}`);
} finally {
  aRpc.close();
  cRpc.close();
  await Promise.all([a.stop(), c.stop()]);
}
