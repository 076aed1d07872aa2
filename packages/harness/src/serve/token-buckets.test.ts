import { describe, expect, it } from 'vitest';
import { TokenBuckets } from './token-buckets.js';

function clock() {
  let now = 0;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('TokenBuckets', () => {
  it('allows the burst at once, then refuses with the wait for the next token', () => {
    const time = clock();
    const buckets = new TokenBuckets({ perMinute: 6, burst: 3 }, time.now);
    expect([buckets.take('a'), buckets.take('a'), buckets.take('a')]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    // 6 a minute: one token every 10 s.
    expect(buckets.take('a')).toEqual({ retryAfterSeconds: 10 });
    time.advance(4_000);
    expect(buckets.take('a')).toEqual({ retryAfterSeconds: 6 });
    time.advance(6_000);
    expect(buckets.take('a')).toBeUndefined();
    expect(buckets.take('a')).toEqual({ retryAfterSeconds: 10 });
  });

  it('keeps each key apart', () => {
    const time = clock();
    const buckets = new TokenBuckets({ perMinute: 1, burst: 1 }, time.now);
    expect(buckets.take('alice')).toBeUndefined();
    expect(buckets.take('alice')).toEqual({ retryAfterSeconds: 60 });
    expect(buckets.take('bob')).toBeUndefined();
  });

  it('never saves up more than the burst', () => {
    const time = clock();
    const buckets = new TokenBuckets({ perMinute: 60, burst: 2 }, time.now);
    time.advance(3_600_000);
    expect(buckets.take('a')).toBeUndefined();
    expect(buckets.take('a')).toBeUndefined();
    expect(buckets.take('a')).toEqual({ retryAfterSeconds: 1 });
  });

  it('refuses a rate that could never give a token', () => {
    expect(() => new TokenBuckets({ perMinute: 0, burst: 1 })).toThrow(RangeError);
    expect(() => new TokenBuckets({ perMinute: 1, burst: 0 })).toThrow(RangeError);
  });
});
