/** The soak's report as a readable table. */
import type { SoakReport } from './checks.js';

const MAX_LISTED = 20;

export function formatReport(r: SoakReport): string {
  const lines: string[] = [];
  const o = r.options;
  lines.push(
    `Soak: ${r.elapsedSeconds.toFixed(1)} s${o.actions === undefined ? '' : ` (${o.actions} actions)`}, ${o.clients} clients, ${o.tasks} live tasks, offline model ${o.latencyMs} ms/word, seed ${o.seed}`,
    `Store: ${r.store}; server heap cap: ${o.serverHeapMiB ? `--max-old-space-size=${o.serverHeapMiB}` : 'none'}`,
    '',
    row('Requests', 'count', 'refused (expected)'),
  );
  const kinds = Object.keys(r.requests).sort();
  for (const kind of kinds)
    lines.push(row(`  ${kind}`, r.requests[kind]!, r.expectedRefusals[kind] ?? 0));
  const total = kinds.reduce((sum, kind) => sum + r.requests[kind]!, 0);
  lines.push(
    row('  total', total, `${(total / r.elapsedSeconds).toFixed(0)} requests/s`),
    '',
    `Commands: ${Object.entries(r.commands)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, count]) => `${name} ${count}`)
      .join(', ')}`,
    '',
    'Checks',
  );
  for (const check of r.checks)
    lines.push(`  ${check.passed ? 'PASS' : 'FAIL'}  ${check.name}: ${check.detail}`);
  lines.push('', `History rule: ${r.historyRule}`);
  const s = r.rss;
  lines.push(
    '',
    `Server RSS (MiB, ${s.samples} samples, one a second): first ${s.first.toFixed(1)}, min ${s.min.toFixed(1)}, max ${s.max.toFixed(1)}, last ${s.last.toFixed(1)}`,
    `  criterion: ${s.criterion}`,
    `  series: ${r.rss.series.map((v) => v.toFixed(0)).join(' ')}`,
  );
  listed(
    lines,
    'Errors',
    r.errors.map((e) => `${e.kind}${e.taskId ? ` on ${e.taskId}` : ''}: ${e.message}`),
  );
  listed(
    lines,
    'Server errors logged',
    r.serverErrorLogs.map((l) => JSON.stringify(l)),
  );
  listed(lines, 'Stuck tasks', r.stuck);
  listed(lines, 'History problems', r.histories.problems);
  lines.push('', r.passed ? 'SOAK PASSED' : 'SOAK FAILED');
  return lines.join('\n');
}

function row(name: string, count: number | string, extra: number | string): string {
  return `${name.padEnd(42)}${String(count).padStart(8)}  ${extra}`;
}

function listed(lines: string[], title: string, items: string[]): void {
  if (items.length === 0) return;
  lines.push('', `${title} (${items.length}):`);
  for (const item of items.slice(0, MAX_LISTED)) lines.push(`  ${item}`);
  if (items.length > MAX_LISTED) lines.push(`  … ${items.length - MAX_LISTED} more in the JSON`);
}
