import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PUSH_OPTIONS, retryDelay, type PushOptions } from './push-options.js';
import { WebhookDeliveries, type Delivery } from './webhook-deliveries.js';
import type { PostOutcome, WebhookRequest } from './webhook-post.js';

const options: PushOptions = {
  ...DEFAULT_PUSH_OPTIONS,
  enabled: true,
  maxAttempts: 3,
  retryDelayMs: 1,
  maxRetryDelayMs: 4,
  queuedPerWebhook: 3,
};

const delivery = (body: string, configId = 'c1'): Delivery => ({
  taskId: 't1',
  configId,
  request: { url: 'https://hooks.example.test/x', body, headers: {}, timeoutMs: 1_000 },
});

/** Answers each POST with the next planned outcome (200 when none is left), recording the bodies. */
function receiver(plan: PostOutcome[] = []) {
  const bodies: string[] = [];
  let settle: (() => void) | undefined;
  const post = (request: WebhookRequest): Promise<PostOutcome> => {
    bodies.push(request.body);
    settle?.();
    return Promise.resolve(plan.shift() ?? { kind: 'answered', status: 200 });
  };
  const posted = (count: number) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (bodies.length >= count) resolve();
        else settle = check;
      };
      check();
    });
  return { bodies, post, posted };
}

const answered = (status: number): PostOutcome => ({ kind: 'answered', status });
const settled = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('webhook deliveries', () => {
  it('waits twice as long before each retry, up to the longest wait', () => {
    const waits = [1, 2, 3, 4, 5].map((retry) =>
      retryDelay({ ...DEFAULT_PUSH_OPTIONS, retryDelayMs: 1_000, maxRetryDelayMs: 5_000 }, retry),
    );
    expect(waits).toEqual([1_000, 2_000, 4_000, 5_000, 5_000]);
  });

  it('retries no answer, 429 and 5xx, and stops after maxAttempts tries', async () => {
    const hook = receiver([
      { kind: 'failed', reason: 'ECONNREFUSED' },
      answered(429),
      answered(503),
      answered(500),
    ]);
    const deliveries = new WebhookDeliveries({
      post: hook.post,
      options,
      logger: pino({ level: 'silent' }),
    });
    deliveries.enqueue(delivery('a'));
    await hook.posted(3);
    await settled();
    expect(hook.bodies).toEqual(['a', 'a', 'a']);
  });

  it('gives up at once on a redirect, another 4xx, or a refused address', async () => {
    const hook = receiver([answered(302), answered(404), { kind: 'refused', reason: 'loopback' }]);
    const deliveries = new WebhookDeliveries({
      post: hook.post,
      options,
      logger: pino({ level: 'silent' }),
    });
    for (const body of ['a', 'b', 'c']) deliveries.enqueue(delivery(body));
    await hook.posted(3);
    await settled();
    expect(hook.bodies).toEqual(['a', 'b', 'c']);
  });

  it('keeps the order of one webhook through retries', async () => {
    const hook = receiver([answered(503), answered(503)]);
    const deliveries = new WebhookDeliveries({
      post: hook.post,
      options,
      logger: pino({ level: 'silent' }),
    });
    for (const body of ['first', 'second', 'third']) deliveries.enqueue(delivery(body));
    await hook.posted(5);
    expect(hook.bodies).toEqual(['first', 'first', 'first', 'second', 'third']);
  });

  it('drops events past queuedPerWebhook for a webhook that is behind, and only for that one', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const bodies: string[] = [];
    const post = async (request: WebhookRequest): Promise<PostOutcome> => {
      bodies.push(request.body);
      if (request.body === 'slow-1') await held;
      return answered(200);
    };
    const deliveries = new WebhookDeliveries({ post, options, logger: pino({ level: 'silent' }) });
    const queued = ['slow-1', 'slow-2', 'slow-3', 'slow-4'].map((body) =>
      deliveries.enqueue(delivery(body, 'slow')),
    );
    expect(queued).toEqual([true, true, true, false]);
    expect(deliveries.enqueue(delivery('other', 'fast'))).toBe(true);
    await settled();
    release();
    await settled();
    expect(bodies.sort()).toEqual(['other', 'slow-1', 'slow-2', 'slow-3']);
    // Caught up: the webhook takes events again.
    expect(deliveries.enqueue(delivery('slow-5', 'slow'))).toBe(true);
  });

  it('stops retrying when closed', async () => {
    const hook = receiver([answered(503), answered(503)]);
    const slow = { ...options, retryDelayMs: 60_000, maxRetryDelayMs: 60_000 };
    const deliveries = new WebhookDeliveries({
      post: hook.post,
      options: slow,
      logger: pino({ level: 'silent' }),
    });
    deliveries.enqueue(delivery('a'));
    await hook.posted(1);
    deliveries.close();
    await settled();
    expect(hook.bodies).toEqual(['a']);
    expect(deliveries.enqueue(delivery('b'))).toBe(false);
  });
});
