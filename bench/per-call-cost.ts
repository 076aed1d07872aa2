/**
 * What one lone call costs its server, A (the bare SDK agent) beside C (the
 * harness answering `/help` on a new task) and D (`/model` on one task): CPU
 * time, read and write system calls, and the bytes of the answer, per call.
 * Calls go one at a time, in interleaved rounds, so a noisy moment falls on all
 * servers alike; CPU time and system calls are what a busy machine disturbs
 * least, unlike wall time, which this script does not report.
 *
 *   node --conditions=a2a-source --import tsx bench/per-call-cost.ts [--calls 2000] [--rounds 4]
 *
 * CPU is the server process's (all its threads) user + system time from /proc,
 * in clock ticks of 10 ms, so a round needs enough calls (a few seconds of CPU
 * in all). System calls are `syscr` and `syscw` of /proc/<pid>/io: reads and
 * writes of every kind (socket, WAL, log). Not a benchmark: `npm run bench` is
 * the one whose figures count.
 */
import { readFileSync } from 'node:fs';
import { Endpoint, sendMessageBody } from './lib/load.js';
import { startServer, type ServerProcess } from './lib/servers.js';
import { newTask } from './sections/round-trip.js';
import { scratchDir } from './lib/scratch.js';

const option = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
};
const calls = Number(option('calls', '2000'));
const rounds = Number(option('rounds', '4'));

interface Counters {
  cpuMicros: number;
  reads: number;
  writes: number;
}

/** The process's CPU time (all threads) and read/write system calls so far. */
function counters(pid: number): Counters {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(io)?.[1]);
  return {
    cpuMicros: (Number(fields[11]) + Number(fields[12])) * 10_000,
    reads: field('syscr'),
    writes: field('syscw'),
  };
}

interface Subject {
  name: string;
  pid: number;
  endpoint: Endpoint;
  text: string;
  taskId?: string;
}

interface Round {
  cpuMicros: number;
  reads: number;
  writes: number;
  answerBytes: number;
}

/** `count` calls one after another; each answer must be a result. */
async function measure(subject: Subject, count: number): Promise<Round> {
  const before = counters(subject.pid);
  let answerBytes = 0;
  for (let i = 0; i < count; i++) {
    const { status, text } = await subject.endpoint.request(
      sendMessageBody(subject.text, subject.taskId),
    );
    if (status !== 200 || !text.includes('"result"') || text.includes('"error":{'))
      throw new Error(`${subject.name}: a call failed: ${text.slice(0, 300)}`);
    answerBytes += Buffer.byteLength(text);
  }
  const after = counters(subject.pid);
  return {
    cpuMicros: (after.cpuMicros - before.cpuMicros) / count,
    reads: (after.reads - before.reads) / count,
    writes: (after.writes - before.writes) / count,
    answerBytes: answerBytes / count,
  };
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;

const servers: ServerProcess[] = [];
const subjects: Subject[] = [];
try {
  const a = await startServer('A', 'bench/servers/bare-agent.ts', []);
  servers.push(a);
  subjects.push({
    name: 'A',
    pid: a.child.pid!,
    endpoint: new Endpoint(`${a.url}/a2a/jsonrpc`, 1),
    text: 'hello',
  });
  const data = scratchDir('per-call');
  const c = await startServer('C', 'packages/harness/src/cli/main.ts', [
    'serve',
    '--port',
    '0',
    '--data',
    data,
  ]);
  servers.push(c);
  const endpoint = new Endpoint(`${c.url}/a2a/jsonrpc`, 1);
  subjects.push({ name: 'C /help', pid: c.child.pid!, endpoint, text: '/help' });
  const taskId = await newTask(endpoint, '/help');
  subjects.push({ name: 'D /model', pid: c.child.pid!, endpoint, text: '/model', taskId });

  for (const subject of subjects) await measure(subject, Math.min(500, calls)); // warm up
  const results = new Map<string, Round[]>(subjects.map((s) => [s.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const subject of subjects) results.get(subject.name)!.push(await measure(subject, calls));
    console.log(
      `round ${round + 1}: ` +
        subjects
          .map((s) => `${s.name} ${results.get(s.name)!.at(-1)!.cpuMicros.toFixed(0)} µs`)
          .join('  '),
    );
  }
  const aCpu = median(results.get('A')!.map((r) => r.cpuMicros));
  console.log(`\nper call, medians of ${rounds} rounds of ${calls} sequential calls:`);
  console.log('server     CPU µs  ÷A     reads  writes  answer bytes');
  for (const subject of subjects) {
    const rs = results.get(subject.name)!;
    const cpu = median(rs.map((r) => r.cpuMicros));
    console.log(
      [
        subject.name.padEnd(9),
        cpu.toFixed(0).padStart(7),
        (cpu / aCpu).toFixed(2).padStart(5),
        median(rs.map((r) => r.reads))
          .toFixed(1)
          .padStart(7),
        median(rs.map((r) => r.writes))
          .toFixed(1)
          .padStart(7),
        median(rs.map((r) => r.answerBytes))
          .toFixed(0)
          .padStart(13),
      ].join('  '),
    );
  }
} finally {
  for (const subject of subjects) subject.endpoint.close();
  await Promise.all(servers.map((server) => server.stop()));
}
