import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { retryDelay, type PushOptions } from './push-options.js';
import type { PostOutcome, PostWebhook, WebhookRequest } from './webhook-post.js';

/** One event for one webhook. */
export interface Delivery {
  taskId: string;
  configId: string;
  request: WebhookRequest;
}

type Verdict = { kind: 'delivered' } | { kind: 'retry' | 'give-up'; reason: string };

/**
 * Sends each delivery, retrying with a doubling wait, and gives up after
 * `push.maxAttempts` tries. Deliveries to one webhook of one task go one at a
 * time, in the order the events happened, so a receiver never sees a turn end
 * before it started. Kept in memory: what an instance has not delivered when
 * it stops is not sent.
 */
export class WebhookDeliveries {
  /** Per webhook of a task: the last delivery queued, and how many wait or run. */
  private readonly queues = new Map<string, { tail: Promise<void>; size: number }>();
  private readonly stopped = new AbortController();

  constructor(private readonly deps: { post: PostWebhook; options: PushOptions; logger: Logger }) {}

  /**
   * Queues `delivery` behind the others to the same webhook; returns false
   * when `push.queuedPerWebhook` are already waiting there (a receiver that
   * is down must not make events pile up without bound), and it is dropped.
   */
  enqueue(delivery: Delivery): boolean {
    if (this.stopped.signal.aborted) return false;
    const key = `${delivery.taskId}\n${delivery.configId}`;
    const queue = this.queues.get(key) ?? { tail: Promise.resolve(), size: 0 };
    if (queue.size >= this.deps.options.queuedPerWebhook) {
      this.deps.logger.warn(
        { ...whereOf(delivery), queued: queue.size },
        'push: dropped an event for a webhook that is behind (push.queuedPerWebhook)',
      );
      return false;
    }
    queue.size++;
    queue.tail = queue.tail.then(async () => {
      await this.deliver(delivery);
      if (--queue.size === 0 && this.queues.get(key) === queue) this.queues.delete(key);
    });
    this.queues.set(key, queue);
    return true;
  }

  /** Stops retrying; a POST under way ends by its own timeout. */
  close(): void {
    this.stopped.abort();
  }

  private async deliver(delivery: Delivery): Promise<void> {
    const { options, logger } = this.deps;
    const where = whereOf(delivery);
    for (let attempt = 1; !this.stopped.signal.aborted; attempt++) {
      const verdict = await this.deps.post(delivery.request).then(verdictOf, (error: unknown) => ({
        kind: 'give-up' as const,
        reason: `the request could not be made: ${(error as Error).message}`,
      }));
      if (verdict.kind === 'delivered') return;
      if (verdict.kind === 'give-up' || attempt >= options.maxAttempts) {
        logger.warn(
          { ...where, attempts: attempt, reason: verdict.reason },
          'push: gave up on a webhook delivery',
        );
        return;
      }
      const wait = retryDelay(options, attempt);
      logger.debug({ ...where, attempt, reason: verdict.reason, waitMs: wait }, 'push: will retry');
      const waited = await sleep(wait, true, { signal: this.stopped.signal }).catch(() => false);
      if (!waited) return;
    }
  }
}

/** A delivery, as logs name it: only the webhook's origin, since its path or query may hold a secret. */
function whereOf(delivery: Delivery) {
  return {
    taskId: delivery.taskId,
    configId: delivery.configId,
    webhook: new URL(delivery.request.url).origin,
  };
}

/** 2xx is delivered; what a retry may mend (no answer, 408, 429, 5xx) is retried; the rest is given up. */
function verdictOf(outcome: PostOutcome): Verdict {
  switch (outcome.kind) {
    case 'refused':
      return { kind: 'give-up', reason: outcome.reason };
    case 'failed':
      return { kind: 'retry', reason: outcome.reason };
    case 'answered': {
      const { status } = outcome;
      if (status >= 200 && status < 300) return { kind: 'delivered' };
      const reason = `the webhook answered ${status}`;
      if (status >= 300 && status < 400)
        return { kind: 'give-up', reason: `${reason}; redirects are not followed` };
      if (status === 408 || status === 429 || status >= 500) return { kind: 'retry', reason };
      return { kind: 'give-up', reason };
    }
  }
}
