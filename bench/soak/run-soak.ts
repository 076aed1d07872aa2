/**
 * The soak: the real harness CLI as a child process, many clients mixing
 * commands, model turns, cancels and subscriptions over real HTTP for a while,
 * then the checks of verify.ts and the server's memory over time.
 */
import { spawnHarness, writeConfig } from 'a2a-testing/process';
import { cancelTask, createTask, readTask, sendCommand } from './actions.js';
import { checksOf, type SoakReport } from './checks.js';
import { labeler, pick, seededRandom, type ClientContext } from './client.js';
import { Ledger, Tally } from './ledger.js';
import type { SoakOptions } from './options.js';
import { judgeRss, sampleRss } from './rss.js';
import { runTurn, subscribe } from './turns.js';
import { checkHistories, HISTORY_RULE, stuckAfterDrain } from './verify.js';
import { Wire } from './wire.js';
import { scratchDir } from '../lib/scratch.js';

/** Each action with its share of a client's requests, in percent. */
const MIX: { weight: number; run: (ctx: ClientContext) => Promise<void> }[] = [
  { weight: 34, run: (c) => sendCommand(c, 'JSON-RPC') },
  { weight: 6, run: (c) => sendCommand(c, 'HTTP+JSON') },
  { weight: 12, run: (c) => runTurn(c, 'SendMessage', 'JSON-RPC') },
  { weight: 14, run: (c) => runTurn(c, 'SendStreamingMessage', 'JSON-RPC') },
  { weight: 3, run: (c) => runTurn(c, 'SendMessage', 'HTTP+JSON') },
  { weight: 3, run: (c) => runTurn(c, 'SendStreamingMessage', 'HTTP+JSON') },
  { weight: 9, run: (c) => subscribe(c, 'JSON-RPC') },
  { weight: 2, run: (c) => subscribe(c, 'HTTP+JSON') },
  { weight: 13, run: (c) => readTask(c, 'JSON-RPC') },
  { weight: 2, run: (c) => readTask(c, 'HTTP+JSON') },
  { weight: 1.5, run: (c) => cancelTask(c, 'JSON-RPC') },
  { weight: 0.5, run: (c) => cancelTask(c, 'HTTP+JSON') },
];

/** A run bounded by its actions samples RSS this many times, evenly over them. */
const RSS_SAMPLES_PER_RUN = 40;

export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const log = options.log ?? (() => undefined);
  const dataDir = scratchDir('soak');
  const config = writeConfig(dataDir, { offline: { latencyMs: options.latencyMs } });
  const database = options.databaseUrl ? ['--database-url', options.databaseUrl] : [];
  const server = await spawnHarness(
    [...['--data', dataDir, '--config', config, '--log-level', 'warn'], ...database],
    heapCap(options.serverHeapMiB),
  );
  try {
    const random = seededRandom(options.seed);
    const ctx: ClientContext = {
      wire: new Wire(server.url),
      ledger: new Ledger(random),
      tally: new Tally(),
      random,
      label: labeler(),
      contexts: Array.from({ length: Math.ceil(options.tasks / 10) }, () => crypto.randomUUID()),
    };
    log(`harness pid ${server.child.pid} at ${server.url}; creating ${options.tasks} tasks`);
    await inParallel(options.clients, options.tasks, () => createTask(ctx));

    const { actions } = options;
    log(
      `${options.clients} clients for ${actions === undefined ? `${options.durationSeconds} s` : `${actions} actions`}`,
    );
    const sampler = sampleRss(server.child.pid!, actions === undefined ? 1000 : 0);
    const started = performance.now();
    const deadline = started + options.durationSeconds * 1000;
    const sampleEvery = Math.max(1, Math.floor((actions ?? 0) / RSS_SAMPLES_PER_RUN));
    let taken = 0;
    const more =
      actions === undefined
        ? () => performance.now() < deadline
        : () => {
            if (taken >= actions) return false;
            if (++taken % sampleEvery === 0) sampler.take();
            return true;
          };
    const total = MIX.reduce((sum, a) => sum + a.weight, 0);
    const client = async () => {
      while (more()) {
        let roll = ctx.random() * total;
        const action = MIX.find((a) => (roll -= a.weight) < 0) ?? pick(ctx.random, MIX);
        await action.run(ctx);
      }
    };
    await Promise.all(Array.from({ length: options.clients }, client));
    const series = sampler.stop();
    const elapsedSeconds = (performance.now() - started) / 1000;

    log('clients stopped; draining and checking');
    const stuck = await stuckAfterDrain(ctx.wire, ctx.ledger, options.drainSeconds * 1000);
    const histories = await checkHistories(ctx.wire, ctx.ledger);
    const rss = { ...judgeRss(series), series };
    const serverErrorLogs = server.logs.filter((line) => Number(line.level) >= 50);
    const { log: _log, ...reported } = options;
    const report: SoakReport = {
      options: reported,
      store: options.databaseUrl ? redact(options.databaseUrl) : `SQLite in ${dataDir}`,
      elapsedSeconds,
      requests: Object.fromEntries(ctx.tally.requests),
      commands: Object.fromEntries(ctx.tally.commands),
      expectedRefusals: Object.fromEntries(ctx.tally.refusals),
      errors: ctx.tally.errors,
      serverErrorLogs,
      stuck,
      histories,
      historyRule: HISTORY_RULE,
      rss,
      checks: [],
      passed: false,
    };
    report.checks = checksOf(report);
    report.passed = report.checks.every((c) => c.passed);
    return report;
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
}

function heapCap(mib: number): NodeJS.ProcessEnv {
  return mib > 0 ? { NODE_OPTIONS: `--max-old-space-size=${mib}` } : {};
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}

/** `count` calls of `run`, `width` at a time. */
async function inParallel(width: number, count: number, run: () => Promise<void>) {
  let started = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, count) }, async () => {
      while (started < count) {
        started++;
        await run();
      }
    }),
  );
}
