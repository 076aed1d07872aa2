/** Reads figures out of a `/metrics` scrape (Prometheus text format). */

/** One sample's labels, as written between the braces. */
function labelsOf(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const match of text.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[match[1]!] = match[2]!;
  return labels;
}

/**
 * The value of the sample `name` whose labels include `labels`; 0 when there is
 * none (a counter that never moved has no sample for that label set).
 */
export function sample(scrape: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of scrape.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = labelsOf(match[2] ?? '');
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) {
      return Number(match[3]);
    }
  }
  return 0;
}

export async function scrape(baseUrl: string, key?: string): Promise<string> {
  const response = await fetch(`${baseUrl}/metrics`, {
    headers: key ? { authorization: `Bearer ${key}` } : {},
  });
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
  return response.text();
}
