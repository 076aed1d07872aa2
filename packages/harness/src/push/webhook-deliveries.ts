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
  private readonly chains = new Map<string, Promise<void>>();
  private readonly stopped = new AbortController();

  constructor(private readonly deps: { post: PostWebhook; options: PushOptions; logger: Logger }) {}

  enqueue(delivery: Delivery): void {
    if (this.stopped.signal.aborted) return;
    const key = `${delivery.taskId}\n${delivery.configId}`;
    const next = (this.chains.get(key) ?? Promise.resolve()).then(() => this.deliver(delivery));
    this.chains.set(key, next);
    void next.finally(() => {
      if (this.chains.get(key) === next) this.chains.delete(key);
    });
  }

  /** Stops retrying; a POST under way ends by its own timeout. */
  close(): void {
    this.stopped.abort();
  }

  private async deliver(delivery: Delivery): Promise<void> {
    const { options, logger } = this.deps;
    const where = {
      taskId: delivery.taskId,
      configId: delivery.configId,
      // Only the origin: a webhook's path or query may hold a secret.
      webhook: new URL(delivery.request.url).origin,
    };
    for (let attempt = 1; !this.stopped.signal.aborted; attempt++) {
      const verdict = verdictOf(await this.deps.post(delivery.request));
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
