import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface Target {
  name: string;
  value: number;
  target: string;
  met: boolean;
}

export interface Row {
  figure: string;
  value: string;
  ratio?: number;
  ratioTo?: string;
}

export function markdownTable(rows: Row[], targets: Target[]): string {
  const lines = ['| figure | value | ratio |', '| --- | --- | --- |'];
  for (const row of rows) {
    lines.push(
      `| ${row.figure} | ${row.value} | ${row.ratio === undefined ? '' : `${row.ratio.toFixed(2)} × ${row.ratioTo}`} |`,
    );
  }
  lines.push('', '| target | value | wanted | met |', '| --- | --- | --- | --- |');
  for (const t of targets)
    lines.push(
      `| ${t.name} | ${t.value.toFixed(3)} | ${t.target} | ${t.met ? 'met' : '**missed**'} |`,
    );
  return lines.join('\n') + '\n';
}

/** A horizontal bar chart of the ratios, with a line at 1.0. */
export function ratioChart(rows: Row[]): string {
  const bars = rows.filter((r) => r.ratio !== undefined && Number.isFinite(r.ratio));
  const width = 760;
  const left = 330;
  const barHeight = 18;
  const gap = 8;
  const max = Math.max(1.5, ...bars.map((b) => b.ratio!));
  const scale = (width - left - 60) / max;
  const height = bars.length * (barHeight + gap) + 50;
  const items = bars.map((bar, i) => {
    const y = 30 + i * (barHeight + gap);
    const w = Math.max(1, bar.ratio! * scale);
    const label = `${bar.figure} (× ${bar.ratioTo})`.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    return `<text x="${left - 8}" y="${y + 13}" text-anchor="end">${label}</text><rect x="${left}" y="${y}" width="${w.toFixed(1)}" height="${barHeight}" fill="#4f7cac"/><text x="${(left + w + 6).toFixed(1)}" y="${y + 13}">${bar.ratio!.toFixed(2)}</text>`;
  });
  const one = left + scale;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">
<rect width="100%" height="100%" fill="white"/>
<text x="${left}" y="18" font-weight="bold">ratio (1.0 = the reference)</text>
${items.join('\n')}
<line x1="${one}" y1="24" x2="${one}" y2="${height - 10}" stroke="#c33" stroke-dasharray="4 3"/>
</svg>
`;
}

export function writeResults(
  dir: string,
  name: string,
  results: unknown,
  rows: Row[],
  targets: Target[],
): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, `${name}.json`),
    JSON.stringify({ ...(results as object), targets }, null, 2) + '\n',
  );
  writeFileSync(path.join(dir, `${name}.md`), markdownTable(rows, targets));
  writeFileSync(path.join(dir, `${name}.svg`), ratioChart(rows));
}
