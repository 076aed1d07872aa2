import type { CompletionResponse, CompletionValue } from './spec.js';

/**
 * The values that match `typed`, capped at `max`: those that start with it
 * first, then those that contain it, both case-insensitive, each group in the
 * order given; repeated values are dropped. `has_more` says the cap cut some.
 */
export function matchValues(
  values: readonly CompletionValue[],
  typed: string,
  max: number,
): CompletionResponse {
  const query = typed.toLowerCase();
  const seen = new Set<string>();
  const prefixed: CompletionValue[] = [];
  const containing: CompletionValue[] = [];
  for (const candidate of values) {
    if (seen.has(candidate.value)) continue;
    seen.add(candidate.value);
    const lower = candidate.value.toLowerCase();
    if (lower.startsWith(query)) prefixed.push(copy(candidate));
    else if (lower.includes(query)) containing.push(copy(candidate));
  }
  const matched = [...prefixed, ...containing];
  return { values: matched.slice(0, max), has_more: matched.length > max };
}

function copy({ value, description }: CompletionValue): CompletionValue {
  return description === undefined ? { value } : { value, description };
}
