import type { StreamResponse, Task, TaskPushNotificationConfig } from '@a2a-js/sdk';
import { V03PushNotificationSerializer } from '@a2a-js/sdk/compat/v0_3/server';
import {
  V1PushNotificationSerializer,
  type PushNotificationSender,
  type PushNotificationSerializer,
  type ServerCallContext,
} from '@a2a-js/sdk/server';
import type { Logger } from 'pino';
import type { PushConfigStore } from '../store/push-configs.js';
import type { InlineConfigs } from './inline-configs.js';
import type { PushOptions } from './push-options.js';
import type { WebhookDeliveries } from './webhook-deliveries.js';

/** The header the token of a config travels in, as the SDKs send it. */
export const NOTIFICATION_TOKEN_HEADER = 'X-A2A-Notification-Token';

/** Webhook bodies in the shape of the A2A version each config was made over. */
const SERIALIZERS: Record<string, PushNotificationSerializer> = {
  '1.0': new V1PushNotificationSerializer(),
  '0.3': new V03PushNotificationSerializer(),
};

/**
 * Sends a task's status updates, turn states and command replies alike, to
 * the webhooks configured on it. It is told of what this instance publishes
 * only (never of what the other instances relay here), so on a cluster each
 * event is sent by exactly one instance: the one that wrote it.
 */
export class PushSender implements PushNotificationSender {
  /** One event object is published once per stream waiting on it: it is sent once. */
  private readonly seen = new WeakSet<StreamResponse>();
  /** Per task, the event being looked up: events are queued for their webhooks in the order they happened. */
  private readonly order = new Map<string, Promise<void>>();

  constructor(
    private readonly deps: {
      configs: PushConfigStore;
      deliveries: WebhookDeliveries;
      inline: InlineConfigs;
      options: PushOptions;
      logger: Logger;
    },
  ) {}

  /**
   * For what this instance publishes; returns at once, the sending happens
   * after. `turnId`: the message whose turn published it, which may have
   * brought a config of its own.
   */
  notify(taskId: string, event: StreamResponse, turnId?: string): void {
    if (event.payload?.$case !== 'statusUpdate' || this.seen.has(event)) return;
    this.seen.add(event);
    const next = (this.order.get(taskId) ?? Promise.resolve())
      .then(async () => {
        if (turnId) await this.deps.inline.store(turnId, taskId);
        await this.send(event);
      })
      .catch((error: unknown) =>
        this.deps.logger.error(
          { err: error, taskId },
          'push: could not read the webhooks of a task',
        ),
      );
    this.order.set(taskId, next);
    void next.finally(() => {
      if (this.order.get(taskId) === next) this.order.delete(taskId);
    });
  }

  async send(event: StreamResponse, _context?: ServerCallContext, task?: Task): Promise<void> {
    if (event.payload?.$case !== 'statusUpdate') return;
    const taskId = event.payload.value.taskId;
    for (const { config, wireVersion } of await this.deps.configs.forDelivery(taskId)) {
      const { body, contentType } = (SERIALIZERS[wireVersion] ?? SERIALIZERS['1.0']!).serialize(
        event,
        task,
      );
      this.deps.deliveries.enqueue({
        taskId,
        configId: config.id,
        request: {
          url: config.url,
          body,
          headers: { 'content-type': contentType, ...credentialHeaders(config) },
          timeoutMs: this.deps.options.timeoutMs,
        },
      });
    }
  }
}

/**
 * A2A 1.0 (§4.3.3): `authentication` goes in `Authorization` as
 * `<scheme> <credentials>`. The config's `token`, which the spec leaves
 * unplaced, goes in `X-A2A-Notification-Token`, the header the SDKs use; a
 * config with both gets both.
 */
export function credentialHeaders(config: TaskPushNotificationConfig): Record<string, string> {
  const headers: Record<string, string> = {};
  const auth = config.authentication;
  if (auth?.scheme && auth.credentials)
    headers['authorization'] = `${auth.scheme} ${auth.credentials}`;
  if (config.token) headers[NOTIFICATION_TOKEN_HEADER.toLowerCase()] = config.token;
  return headers;
}
