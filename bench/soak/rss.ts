/** The server's resident memory, sampled once a second, and whether it held steady. */
import { readFileSync } from 'node:fs';
import { median } from '../lib/stats.js';

/** VmRSS of a process, in MiB; undefined once it is gone. */
export function rssMiB(pid: number): number | undefined {
  try {
    const kib = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kib === undefined ? undefined : Number(kib) / 1024;
  } catch {
    return undefined;
  }
}

/**
 * Samples `pid`'s RSS every `everyMs`, or, with `everyMs` 0, only when `take`
 * is called (a run bounded by its actions samples by actions, so that a busy
 * machine does not change how many samples it judges).
 */
export function sampleRss(pid: number, everyMs = 1000): { take(): void; stop(): number[] } {
  const samples: number[] = [];
  const take = () => {
    const value = rssMiB(pid);
    if (value !== undefined) samples.push(value);
  };
  take();
  const timer = everyMs > 0 ? setInterval(take, everyMs) : undefined;
  return {
    take,
    stop: () => {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}

/** Above this, memory is taken to grow in the last half. */
export const RSS_GROWTH_LIMIT = 0.1;

export interface RssVerdict {
  samples: number;
  first: number;
  last: number;
  min: number;
  max: number;
  /** Medians of the third and fourth quarters of the run. */
  q3Median: number;
  q4Median: number;
  q3Max: number;
  q4Max: number;
  /** q4Median / q3Median - 1. */
  growth: number;
  stable: boolean;
  criterion: string;
}

/**
 * A leak shows as memory that keeps rising once the load is steady. The first
 * half is warm-up (JIT, caches, the heap finding its size) and is not judged.
 * In the last half the typical level (the median of each quarter) and the peak
 * (each quarter's max) must both rise by less than 10% from the third quarter
 * to the fourth: a median alone would miss a sawtooth whose peaks climb.
 */
export function judgeRss(series: readonly number[]): RssVerdict {
  const quarter = (i: number) =>
    series.slice(Math.floor((series.length * i) / 4), Math.floor((series.length * (i + 1)) / 4));
  const q3 = quarter(2);
  const q4 = quarter(3);
  const q3Median = median(q3);
  const q4Median = median(q4);
  const q3Max = Math.max(...q3);
  const q4Max = Math.max(...q4);
  const growth = q4Median / q3Median - 1;
  const enough = q3.length >= 2 && q4.length >= 2;
  return {
    samples: series.length,
    first: series[0] ?? Number.NaN,
    last: series.at(-1) ?? Number.NaN,
    min: Math.min(...series),
    max: Math.max(...series),
    q3Median,
    q4Median,
    q3Max,
    q4Max,
    growth,
    stable: enough && growth < RSS_GROWTH_LIMIT && q4Max < q3Max * (1 + RSS_GROWTH_LIMIT),
    criterion: `median and max of the 4th quarter each < ${RSS_GROWTH_LIMIT * 100}% above the 3rd quarter's (at least 2 samples a quarter)`,
  };
}
