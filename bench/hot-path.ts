/**
 * A quick look at the command path alone, for profiling while it changes:
 * A (the bare SDK agent), C (the harness answering `/help` on new tasks) and
 * D (`/model` on one task), in alternating rounds, as ratios to A.
 *
 *   node --conditions=a2a-source --import tsx bench/hot-path.ts [--rounds 3] [--seconds 3]
 *     [--in-flight 32] [--profile <dir>] [--baseline <checkout>] [--only C,D]
 *
 * Beside throughput it prints each server's CPU time a call (user + system, from
 * /proc), which a busy machine disturbs less. `--baseline <checkout>` also runs
 * the harness of another checkout (with its node_modules), as C0 and D0, in the
 * same rounds: before and after, side by side. `--profile <dir>` starts this
 * checkout's harness with `--cpu-prof` and leaves the profile there (A's in `<dir>/A`).
 * Not a benchmark: `npm run bench` is the one whose figures count.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Endpoint, sendCall, throughput, type Call } from './lib/load.js';
import { repoRoot, startServer, type ServerProcess } from './lib/servers.js';
import { newTask } from './sections/round-trip.js';
import { scratchDir } from './lib/scratch.js';

const option = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
};
const rounds = Number(option('rounds', '3'));
const seconds = Number(option('seconds', '3'));
const inFlight = Number(option('in-flight', '32'));
const profileDir = option('profile', '');
const baseline = option('baseline', '');
/** The harness's subjects to measure, beside A: C, D or both. */
const only = option('only', 'C,D').split(',');

const harness = (name: string, checkout: string, nodeArgs: string[] = []) =>
  startServer(
    name,
    path.relative(repoRoot, path.join(checkout, 'packages/harness/src/cli/main.ts')),
    ['serve', '--port', '0', '--data', scratchDir('hot-path')],
    {},
    nodeArgs,
  );

/** CPU time the process has used, in ms (clock ticks of 10 ms). */
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

interface Subject {
  name: string;
  call: Call;
  pid: number;
}

const servers: ServerProcess[] = [];
const endpoints: Endpoint[] = [];
const subjects: Subject[] = [];
async function harnessSubjects(suffix: string, server: ServerProcess) {
  const rpc = new Endpoint(`${server.url}/a2a/jsonrpc`);
  endpoints.push(rpc);
  const task = await newTask(rpc, '/help');
  const pid = server.child.pid!;
  if (only.includes('C')) subjects.push({ name: `C${suffix}`, call: sendCall(rpc, '/help'), pid });
  if (only.includes('D'))
    subjects.push({ name: `D${suffix}`, call: sendCall(rpc, '/model', task), pid });
}

try {
  const a = await startServer(
    'A',
    'bench/servers/bare-agent.ts',
    [],
    {},
    profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.join(profileDir, 'A')}`] : [],
  );
  servers.push(a);
  const aRpc = new Endpoint(`${a.url}/a2a/jsonrpc`);
  endpoints.push(aRpc);
  subjects.push({ name: 'A', call: sendCall(aRpc, 'hello'), pid: a.child.pid! });
  const c = await harness(
    'C',
    repoRoot,
    profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  );
  servers.push(c);
  await harnessSubjects('', c);
  if (baseline) {
    const c0 = await harness('C0', path.resolve(baseline));
    servers.push(c0);
    await harnessSubjects('0', c0);
  }

  const perSecond = new Map<string, number[]>(subjects.map((s) => [s.name, []]));
  const cpuPerCall = new Map<string, number[]>(subjects.map((s) => [s.name, []]));
  // Warm-up, then rounds in turn, so that the machine's noise falls on all alike.
  for (const s of subjects) await throughput(s.call, inFlight, 1000);
  for (let round = 0; round < rounds; round++) {
    for (const s of subjects) {
      const cpuBefore = cpuMs(s.pid);
      const start = performance.now();
      const result = await throughput(s.call, inFlight, seconds * 1000);
      const calls = (result.perSecond * (performance.now() - start)) / 1000;
      if (result.errors > 0) console.log(`${s.name}: ${result.errors} failed calls`);
      perSecond.get(s.name)!.push(result.perSecond);
      cpuPerCall.get(s.name)!.push(((cpuMs(s.pid) - cpuBefore) * 1000) / calls);
    }
    const line = subjects.map(
      (s) =>
        `${s.name} ${perSecond.get(s.name)!.at(-1)!.toFixed(0)}/s ${cpuPerCall.get(s.name)!.at(-1)!.toFixed(0)}µs`,
    );
    console.log(`round ${round + 1}: ${line.join('  ')}`);
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  const aRate = median(perSecond.get('A')!);
  const aCpu = median(cpuPerCall.get('A')!);
  console.log(`@${inFlight} in flight, medians of ${rounds} rounds (÷A: higher is better):`);
  for (const s of subjects.slice(1)) {
    const rate = median(perSecond.get(s.name)!);
    const cpu = median(cpuPerCall.get(s.name)!);
    console.log(
      `  ${s.name}: throughput ÷A ${(rate / aRate).toFixed(3)}; CPU a call ${cpu.toFixed(0)} µs (A ${aCpu.toFixed(0)} µs), calls a CPU-second ÷A ${(aCpu / cpu).toFixed(3)}`,
    );
  }
} finally {
  for (const endpoint of endpoints) endpoint.close();
  await Promise.all(servers.map((server) => server.stop()));
}
