/** How fast one caller's tokens come back, and how many can be saved up. */
export interface BucketRate {
  perMinute: number;
  burst: number;
}

/** A refusal: how long until the next token is there. */
export interface Refusal {
  retryAfterSeconds: number;
}

interface Bucket {
  tokens: number;
  /** When `tokens` was last brought up to date, in ms. */
  at: number;
}

/** Past this many buckets, full ones are dropped: a full bucket is the same as no bucket. */
const PRUNE_ABOVE = 10_000;

/**
 * A token bucket per key. Each key starts with `burst` tokens; each take costs
 * one; tokens come back at `perMinute` a minute, up to `burst`. Refilled
 * lazily on each take, so idle keys cost nothing but their entry.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;

  constructor(
    private readonly rate: BucketRate,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(rate.perMinute > 0) || !(rate.burst >= 1)) {
      throw new RangeError('a bucket needs perMinute > 0 and burst >= 1');
    }
    this.perMs = rate.perMinute / 60_000;
  }

  /** Takes a token for `key`, or says how long to wait for one. */
  take(key: string): Refusal | undefined {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.rate.burst, at: now };
    bucket.tokens = Math.min(this.rate.burst, bucket.tokens + (now - bucket.at) * this.perMs);
    bucket.at = now;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      this.buckets.set(key, bucket);
      if (this.buckets.size > PRUNE_ABOVE) this.prune(now);
      return undefined;
    }
    this.buckets.set(key, bucket);
    const waitMs = (1 - bucket.tokens) / this.perMs;
    return { retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  private prune(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.at) * this.perMs >= this.rate.burst) {
        this.buckets.delete(key);
      }
    }
  }
}
