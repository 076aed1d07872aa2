/**
 * Edit distance with adjacent transpositions (optimal string alignment), so the
 * common typos — a dropped, doubled, changed or swapped letter — each cost 1.
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  const at = (i: number, j: number) => d[i * cols + j] ?? 0;
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, at(i - 2, j - 2) + 1);
      }
      d[i * cols + j] = best;
    }
  }
  return at(a.length, b.length);
}

function commonPrefix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

function splitId(id: string): { provider: string; model: string } {
  const slash = id.indexOf('/');
  return slash < 0
    ? { provider: '', model: id }
    : { provider: id.slice(0, slash), model: id.slice(slash + 1) };
}

interface Scored {
  candidate: string;
  distance: number;
  prefix: number;
}

/**
 * Typed text longer than this gets no suggestions: no id or command name is
 * that long, and edit distance costs the product of the two lengths.
 */
export const MAX_SUGGESTION_QUERY_CHARS = 200;

/**
 * Close matches for a mistyped `<provider>/<model>` id among `candidates`, best first.
 * A bare model name (`gpt-tset`) is compared with the model part of each candidate; a
 * candidate also matches when its model part starts with or contains what was typed.
 * The edit distance is computed only where the lengths leave it a chance.
 */
export function closeMatches(
  query: string,
  candidates: Iterable<string>,
  limit = 3,
  distanceOf: (a: string, b: string) => number = editDistance,
): string[] {
  const q = query.trim().toLowerCase();
  if (q === '' || limit <= 0 || q.length > MAX_SUGGESTION_QUERY_CHARS) return [];
  const typed = splitId(q);
  const scored: Scored[] = [];
  for (const candidate of new Set(candidates)) {
    const c = candidate.toLowerCase();
    const parts = splitId(c);
    const compared = typed.provider ? q : typed.model;
    const tolerance = Math.max(2, Math.floor(compared.length * 0.4));
    const contained = typed.model.length >= 2 && parts.model.includes(typed.model);
    // An edit distance is at least the difference in length: skip what cannot be close.
    const reachable =
      Math.abs(q.length - c.length) <= tolerance ||
      Math.abs(typed.model.length - parts.model.length) <= tolerance;
    if (!reachable && !contained) continue;
    const whole = distanceOf(q, c);
    const modelOnly =
      distanceOf(typed.model, parts.model) +
      (typed.provider && typed.provider !== parts.provider ? 1 : 0);
    const distance = Math.min(whole, modelOnly);
    if (distance <= tolerance || contained) {
      scored.push({ candidate, distance, prefix: commonPrefix(typed.model, parts.model) });
    }
  }
  scored.sort(
    (x, y) =>
      x.distance - y.distance || y.prefix - x.prefix || x.candidate.localeCompare(y.candidate),
  );
  return scored.slice(0, limit).map((s) => s.candidate);
}
