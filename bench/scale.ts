/**
 * `npm run bench -- --scale`: command and turn throughput of 1, 2 and 3
 * harness instances sharing one PostgreSQL, called round-robin. A throwaway
 * PostgreSQL cluster is started unless `A2A_BENCH_DATABASE_URL` names a server.
 */
import os from 'node:os';
import path from 'node:path';
import { startThrowawayPostgres } from 'a2a-testing/throwaway-postgres';
import { writeResults, type Row } from './lib/report.js';
import { repoRoot } from './lib/servers.js';
import { ratio } from './lib/stats.js';
import { scaleOut } from './sections/scale.js';

export async function runScaleBench(quick: boolean, log: (message: string) => void): Promise<void> {
  const external = process.env.A2A_BENCH_DATABASE_URL;
  const postgres = external ? undefined : await startThrowawayPostgres();
  const serverUrl = external ?? postgres!.url;
  const plan = quick
    ? { rounds: 3, secondsEach: 2, inFlight: 32 }
    : { rounds: 5, secondsEach: 5, inFlight: 32 };
  try {
    log(
      `scale: /help and ordinary messages, ${plan.inFlight} in flight, ${plan.rounds} rounds of ${plan.secondsEach} s each`,
    );
    const startedAt = new Date().toISOString();
    const results = await scaleOut(serverUrl, [1, 2, 3], plan, log);
    const one = results[0]!;
    const rows: Row[] = [];
    const fmt = (f: { median: number; min: number; max: number }) =>
      `${f.median.toFixed(0)} /s (${f.min.toFixed(0)}–${f.max.toFixed(0)})`;
    for (const r of results) {
      rows.push({
        figure: `/help, ${r.instances} instance${r.instances === 1 ? '' : 's'}`,
        value: fmt(r.commands),
        ratio: ratio(r.commands, one.commands),
        ratioTo: '1 instance',
      });
    }
    for (const r of results) {
      rows.push({
        figure: `turns, ${r.instances} instance${r.instances === 1 ? '' : 's'}`,
        value: fmt(r.turns),
        ratio: ratio(r.turns, one.turns),
        ratioTo: '1 instance',
      });
      if (r.errors > 0) log(`scale: ${r.errors} failed calls with ${r.instances} instances`);
    }
    writeResults(
      path.join(repoRoot, 'bench/results'),
      'scale',
      {
        quick,
        startedAt,
        finishedAt: new Date().toISOString(),
        machine: { cpus: os.cpus().length, node: process.version },
        database: external ? 'external' : 'throwaway cluster on this machine, fsync off',
        plan,
        results,
      },
      rows,
      [],
    );
    for (const row of rows)
      log(`${row.figure}: ${row.value} = ${row.ratio!.toFixed(2)} × ${row.ratioTo}`);
    log('wrote bench/results/scale.json, .md and .svg');
  } finally {
    await postgres?.stop();
  }
}
