/**
 * `npm run soak [-- --duration 60 | --actions 2400] [--clients 32 --tasks 200 --database-url <url>]`
 * (also `--latency-ms 2`, `--seed 1`, `--server-heap-mib 128`, `--out <file>`):
 * the harness under a mixed load for a while, then checked. Prints a table,
 * writes bench/results/soak.json (or --out), and exits 1 if a check failed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from './lib/servers.js';
import { formatReport } from './soak/report.js';
import { SOAK_DEFAULTS } from './soak/options.js';
import { runSoak } from './soak/run-soak.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string' },
    actions: { type: 'string' },
    clients: { type: 'string' },
    tasks: { type: 'string' },
    'database-url': { type: 'string' },
    'latency-ms': { type: 'string' },
    seed: { type: 'string' },
    'server-heap-mib': { type: 'string' },
    out: { type: 'string' },
  },
});

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0) throw new Error(`--${name} must be a number ≥ 0`);
  return number;
}

const report = await runSoak({
  ...SOAK_DEFAULTS,
  durationSeconds: positive('duration', values.duration, SOAK_DEFAULTS.durationSeconds),
  actions: values.actions === undefined ? undefined : positive('actions', values.actions, 0),
  clients: positive('clients', values.clients, SOAK_DEFAULTS.clients),
  tasks: positive('tasks', values.tasks, SOAK_DEFAULTS.tasks),
  latencyMs: positive('latency-ms', values['latency-ms'], SOAK_DEFAULTS.latencyMs),
  seed: positive('seed', values.seed, SOAK_DEFAULTS.seed),
  serverHeapMiB: positive(
    'server-heap-mib',
    values['server-heap-mib'],
    SOAK_DEFAULTS.serverHeapMiB,
  ),
  databaseUrl: values['database-url'],
  log: (line) => console.error(`[soak] ${line}`),
});
console.log(formatReport(report));
const out = values.out ?? path.join(repoRoot, 'bench/results/soak.json');
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
console.log(`\nJSON summary: ${path.relative(process.cwd(), out)}`);
process.exitCode = report.passed ? 0 : 1;
