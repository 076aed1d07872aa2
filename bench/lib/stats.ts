export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

/** The median of repeated rounds, and how far the rounds spread around it. */
export interface Figure {
  median: number;
  min: number;
  max: number;
  rounds: number[];
}

export function figure(rounds: number[]): Figure {
  return { median: median(rounds), min: Math.min(...rounds), max: Math.max(...rounds), rounds };
}

export function ratio(value: Figure, floor: Figure): number {
  return value.median / floor.median;
}
