/**
 * `npm run bench` (about 9 minutes) or `npm run bench -- --quick` (about 1);
 * `npm run bench -- --scale` measures several instances on one PostgreSQL instead.
 * Every server runs in its own process on loopback; every figure is the median
 * of rounds taken side by side, and is reported as a ratio to its reference.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Endpoint, sendCall } from './lib/load.js';
import { writeResults, type Row, type Target } from './lib/report.js';
import { repoRoot, startServer, type ServerProcess } from './lib/servers.js';
import { ratio, type Figure } from './lib/stats.js';
import { cardThroughput, completePerKeystroke } from './sections/card-size.js';
import { completionRoundTrip } from './sections/completion.js';
import { seedHistories } from './sections/history.js';
import { newTask, roundTrip } from './sections/round-trip.js';
import { commandUnderLoad } from './sections/under-load.js';
import { runScaleBench } from './scale.js';
import { scratchDir } from './lib/scratch.js';

const quick = process.argv.includes('--quick');
if (process.argv.includes('--scale')) {
  await runScaleBench(quick, (message) => console.log(`[bench] ${message}`));
  process.exit(0);
}
const plan = quick
  ? {
      calls: 300,
      rounds: 3,
      inFlight: [1, 32],
      secondsEach: 3,
      histories: [0, 1000],
      loadTasks: 20,
      memory: [2000, 5000, 10000],
      cards: [2, 100, 1000],
    }
  : {
      calls: 2000,
      rounds: 5,
      inFlight: [1, 8, 32, 128],
      secondsEach: 10,
      histories: [0, 1000, 10000],
      loadTasks: 50,
      memory: [10000, 50000, 100000],
      cards: [2, 100, 1000],
    };

const tmp = scratchDir;
const log = (message: string) => console.log(`[bench] ${message}`);
const harness = (name: string, args: string[] = []) =>
  startServer(name, 'packages/harness/src/cli/main.ts', [
    'serve',
    '--port',
    '0',
    '--data',
    tmp(name),
    ...args,
  ]);

function writeConfig(config: unknown): string {
  const file = path.join(tmp('config'), 'harness.json');
  writeFileSync(file, JSON.stringify(config));
  return file;
}

const servers: ServerProcess[] = [];
const rows: Row[] = [];
const targets: Target[] = [];
const results: Record<string, unknown> = {
  quick,
  startedAt: new Date().toISOString(),
  machine: { cpus: os.cpus().length, node: process.version },
};
const fmt = (f: Figure, unit: string, digits = 2) =>
  `${f.median.toFixed(digits)} ${unit} (${f.min.toFixed(digits)}–${f.max.toFixed(digits)})`;
function target(name: string, value: number, wanted: string, met: boolean) {
  targets.push({ name, value, target: wanted, met });
  log(`${met ? 'MET   ' : 'MISSED'} ${name}: ${value.toFixed(3)} (wanted ${wanted})`);
}

try {
  // 1 and 2: round trip, and the pass-through of an ordinary message.
  log('starting servers A, A+model, A′, B, C, D and the pass-through harness');
  // The later sections' servers start now too: an idle server costs nothing, a start costs seconds.
  const [a, aModel, aPrime, b, c, pass, loaded, m] = await Promise.all([
    startServer('A', 'bench/servers/bare-agent.ts', []),
    startServer('A+model', 'bench/servers/bare-agent.ts', ['--model', 'offline']),
    startServer('A′', 'bench/servers/bare-agent.ts', [
      '--store',
      'sqlite',
      '--data',
      tmp('a-prime'),
    ]),
    startServer('B', 'bench/servers/example-agent.ts', []),
    harness('C'),
    harness('pass', ['--config', writeConfig({ offline: { latencyMs: 0 } })]),
    harness('load', ['--config', writeConfig({ offline: { latencyMs: 5 } })]),
    harness('memory'),
  ]);
  servers.push(a, aModel, aPrime, b, c, pass, loaded, m);
  const rpc = (s: ServerProcess) => new Endpoint(`${s.url}/a2a/jsonrpc`);
  const dTask = await newTask(rpc(c));
  const subjects = [
    { name: 'A', call: sendCall(rpc(a), 'hello') },
    { name: 'A′', call: sendCall(rpc(aPrime), 'hello') },
    { name: 'B', call: sendCall(rpc(b), '/help') },
    { name: 'C', call: sendCall(rpc(c), '/help') },
    { name: 'D', call: sendCall(rpc(c), '/model', dTask) },
  ];
  log(
    `round trip: ${plan.calls} sequential calls and ${plan.inFlight.join('/')} in flight for ${plan.secondsEach} s, in ${plan.rounds} rounds`,
  );
  const trips = await roundTrip(subjects, plan);
  results.roundTrip = trips;
  const floor = trips.A!;
  for (const s of subjects) {
    const t = trips[s.name]!;
    rows.push({
      figure: `${s.name} p50`,
      value: fmt(t.p50, 'ms', 3),
      ratio: ratio(t.p50, floor.p50),
      ratioTo: 'A p50',
    });
    rows.push({
      figure: `${s.name} p99`,
      value: fmt(t.p99, 'ms', 3),
      ratio: ratio(t.p99, floor.p99),
      ratioTo: 'A p99',
    });
    for (const k of plan.inFlight) {
      rows.push({
        figure: `${s.name} throughput @${k}`,
        value: fmt(t.throughput[k]!, '/s', 0),
        ratio: ratio(t.throughput[k]!, floor.throughput[k]!),
        ratioTo: `A @${k}`,
      });
    }
    if (t.errors > 0) log(`${s.name}: ${t.errors} failed calls`);
  }
  const c32 = ratio(trips.C!.throughput[32]!, floor.throughput[32]!);
  target('C /help throughput @32 ÷ A', c32, '≥ 1.0 (stretch 1.2)', c32 >= 1);
  const cP50 = ratio(trips.C!.p50, floor.p50);
  target('C /help p50 ÷ A', cP50, '≤ 1.0', cP50 <= 1);
  // One call at a time: a lone command pays its whole path, commit included, with nothing to share it.
  const c1 = ratio(trips.C!.throughput[1]!, floor.throughput[1]!);
  target('C /help throughput @1 ÷ A', c1, '≥ 1.0', c1 >= 1);
  // The target for a command on an existing task (it reads the head, then appends).
  const d32 = ratio(trips.D!.throughput[32]!, floor.throughput[32]!);
  target('D /model throughput @32 ÷ A', d32, '≥ 1.0', d32 >= 1);

  // 1b: argument completion (POST /a2a/complete) beside /help, on server C.
  log('completion: /model and /help values beside the /help command, on C');
  const completion = await completionRoundTrip(c.url, dTask, {
    calls: quick ? 300 : 1000,
    rounds: plan.rounds,
    inFlight: [32],
    secondsEach: plan.secondsEach,
  });
  results.completion = completion;
  for (const name of ['complete /model', 'complete /help']) {
    const t = completion[name]!;
    rows.push({
      figure: `${name} p50`,
      value: fmt(t.p50, 'ms', 3),
      ratio: ratio(t.p50, completion['/help']!.p50),
      ratioTo: '/help p50',
    });
    rows.push({
      figure: `${name} throughput @32`,
      value: fmt(t.throughput[32]!, '/s', 0),
      ratio: ratio(t.throughput[32]!, completion['/help']!.throughput[32]!),
      ratioTo: '/help @32',
    });
  }

  // 2: the pass-through, in rounds of its own beside A: a model turn is an order slower than a command.
  log('pass-through: an ordinary message to the offline model, beside A and A+model, 32 in flight');
  const passTrips = await roundTrip(
    [
      { name: 'A', call: sendCall(rpc(a), 'hello') },
      { name: 'A+model', call: sendCall(rpc(aModel), 'hello') },
      { name: 'pass-through', call: sendCall(rpc(pass), 'hello') },
    ],
    {
      calls: quick ? 100 : 500,
      rounds: plan.rounds,
      inFlight: [32],
      secondsEach: plan.secondsEach,
    },
  );
  results.passThrough = passTrips;
  const passed = passTrips['pass-through']!;
  rows.push({
    figure: 'pass-through p50',
    value: fmt(passed.p50, 'ms', 3),
    ratio: ratio(passed.p50, passTrips.A!.p50),
    ratioTo: 'A p50',
  });
  rows.push({
    figure: 'pass-through throughput @32',
    value: fmt(passed.throughput[32]!, '/s', 0),
    ratio: ratio(passed.throughput[32]!, passTrips.A!.throughput[32]!),
    ratioTo: 'A @32',
  });
  const withModel = passTrips['A+model']!;
  rows.push({
    figure: 'A+model throughput @32',
    value: fmt(withModel.throughput[32]!, '/s', 0),
    ratio: ratio(withModel.throughput[32]!, passTrips.A!.throughput[32]!),
    ratioTo: 'A @32',
  });
  rows.push({
    figure: 'pass-through throughput @32, to A+model',
    value: fmt(passed.throughput[32]!, '/s', 0),
    ratio: ratio(passed.throughput[32]!, withModel.throughput[32]!),
    ratioTo: 'A+model @32',
  });
  // A figure, not a target: a model turn against an echo; A+model is its fair floor.
  const passRatio = ratio(passed.throughput[32]!, passTrips.A!.throughput[32]!);
  log(`figure pass-through throughput @32 ÷ A: ${passRatio.toFixed(3)}`);
  const fairRatio = ratio(passed.throughput[32]!, withModel.throughput[32]!);
  target('pass-through throughput @32 ÷ A+model', fairRatio, '≥ 0.85', fairRatio >= 0.85);
  await Promise.all([a.stop(), aModel.stop(), aPrime.stop(), b.stop(), pass.stop()]);

  // 3: history length.
  log(`history: /help on tasks with ${plan.histories.join(', ')} messages`);
  const historyDir = tmp('history');
  const seeded = await seedHistories(historyDir, plan.histories);
  const h = await startServer('history', 'packages/harness/src/cli/main.ts', [
    'serve',
    '--port',
    '0',
    '--data',
    historyDir,
  ]);
  servers.push(h);
  const historyTrips = await roundTrip(
    plan.histories.map((n) => ({ name: String(n), call: sendCall(rpc(h), '/help', seeded[n]) })),
    {
      calls: quick ? 150 : 1000,
      rounds: plan.rounds,
      inFlight: [32],
      secondsEach: quick ? 1.5 : 5,
    },
  );
  results.history = historyTrips;
  const h0 = historyTrips['0']!;
  for (const n of plan.histories) {
    const t = historyTrips[String(n)]!;
    rows.push({
      figure: `/help p50, ${n} history`,
      value: fmt(t.p50, 'ms', 3),
      ratio: ratio(t.p50, h0.p50),
      ratioTo: 'history 0',
    });
  }
  const longest = plan.histories.at(-1)!;
  const historyRatio = ratio(historyTrips[String(longest)]!.p50, h0.p50);
  target(`/help p50 at history ${longest} ÷ 0`, historyRatio, '≤ 1.5', historyRatio <= 1.5);
  await h.stop();

  // 4: under load.
  log(
    `under load: /help while ${plan.loadTasks} tasks stream model turns, in ${plan.rounds} rounds`,
  );
  const loadTasks = await Promise.all(
    Array.from({ length: plan.loadTasks }, () => newTask(rpc(loaded))),
  );
  const underLoad = await commandUnderLoad(loaded.url, sendCall(rpc(loaded), '/help'), loadTasks, {
    rounds: plan.rounds,
    calls: Math.ceil((quick ? 100 : 500) / plan.rounds),
  });
  results.underLoad = underLoad;
  const busyRatio = ratio(underLoad.busyP50, underLoad.idleP50);
  rows.push({
    figure: '/help p50 under load',
    value: `${fmt(underLoad.busyP50, 'ms', 3)}; idle ${fmt(underLoad.idleP50, 'ms', 3)}; ${underLoad.turns} turns`,
    ratio: busyRatio,
    ratioTo: 'idle',
  });
  target('/help p50 under load ÷ idle', busyRatio, '≤ 1.5', busyRatio <= 1.5);
  await loaded.stop();

  // 5: card size and completion.
  log(`card size: GET the card with ${plan.cards.join(', ')} commands`);
  const cards = await cardThroughput(plan.cards, {
    rounds: plan.rounds,
    secondsEach: quick ? 3 : 5,
    inFlight: 32,
  });
  results.cardThroughput = cards;
  const smallest = cards[plan.cards[0]!]!;
  for (const n of plan.cards)
    rows.push({
      figure: `card GET, ${n} commands`,
      value: fmt(cards[n]!, '/s', 0),
      ratio: ratio(cards[n]!, smallest),
      ratioTo: `${plan.cards[0]} commands`,
    });
  const cardRatio = ratio(cards[plan.cards.at(-1)!]!, smallest);
  target(
    `card GET with ${plan.cards.at(-1)} commands ÷ ${plan.cards[0]}`,
    cardRatio,
    '≥ 0.8',
    cardRatio >= 0.8,
  );
  const perKey = completePerKeystroke(1000, quick ? 20 : 100);
  const perKeyLimited = completePerKeystroke(1000, quick ? 20 : 100, 50);
  results.complete = { unlimitedMicroseconds: perKey, limit50Microseconds: perKeyLimited };
  rows.push({
    figure: 'complete() per keystroke, 1,000 commands',
    value: `${fmt(perKey, 'µs', 1)}; with limit 50: ${fmt(perKeyLimited, 'µs', 1)}`,
  });
  target(
    'complete() per keystroke over 1,000 commands (ms)',
    perKey.median / 1000,
    '< 1',
    perKey.median < 1000,
  );

  // 6: memory.
  log(
    `memory: RSS after ${plan.memory[0]} tasks, then after ${plan.memory[1]} and ${plan.memory[2]} commands`,
  );
  const memoryEndpoint = new Endpoint(`${m.url}/a2a/jsonrpc`, 128);
  const createTask = sendCall(memoryEndpoint, '/help');
  const runCalls = async (call: () => Promise<boolean>, count: number) => {
    let next = 0;
    let failed = 0;
    await Promise.all(
      Array.from({ length: 96 }, async () => {
        while (next++ < count) if (!(await call())) failed++;
      }),
    );
    if (failed > 0) log(`memory: ${failed} calls failed`);
  };
  await runCalls(createTask, plan.memory[0]!);
  const rssTasks = m.rssMiB();
  const memoryTask = await newTask(memoryEndpoint);
  const command = sendCall(memoryEndpoint, '/model', memoryTask);
  await runCalls(command, plan.memory[1]!);
  const rssMid = m.rssMiB();
  await runCalls(command, plan.memory[2]! - plan.memory[1]!);
  const rssEnd = m.rssMiB();
  results.memory = {
    tasks: plan.memory[0],
    rssAfterTasksMiB: rssTasks,
    rssAfterMidCommandsMiB: rssMid,
    rssAfterAllCommandsMiB: rssEnd,
    commands: plan.memory.slice(1),
  };
  rows.push({ figure: `RSS after ${plan.memory[0]} tasks`, value: `${rssTasks.toFixed(0)} MiB` });
  rows.push({
    figure: `RSS after ${plan.memory[1]} → ${plan.memory[2]} commands`,
    value: `${rssMid.toFixed(0)} → ${rssEnd.toFixed(0)} MiB`,
    ratio: rssEnd / rssMid,
    ratioTo: `RSS at ${plan.memory[1]}`,
  });
  target(
    `RSS growth ${plan.memory[1]} → ${plan.memory[2]} commands`,
    rssEnd / rssMid - 1,
    '≤ 0.10',
    rssEnd / rssMid - 1 <= 0.1,
  );
  memoryEndpoint.close();
  await m.stop();
  await c.stop();

  results.finishedAt = new Date().toISOString();
  const name = quick ? 'quick' : 'latest';
  writeResults(path.join(repoRoot, 'bench/results'), name, results, rows, targets);
  log(`wrote bench/results/${name}.json, .md and .svg`);
} finally {
  await Promise.all(servers.map((s) => s.stop().catch(() => undefined)));
}
