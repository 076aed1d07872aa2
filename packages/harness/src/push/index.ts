import type { AgentCard } from '@a2a-js/sdk';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import type { StreamRelay } from 'a2a-commands/server';
import type { Logger } from 'pino';
import type { AnyKysely, Owner } from '../store/index.js';
import { PushConfigStore } from '../store/push-configs.js';
import type { TaskEventRelay } from '../turns/task-events.js';
import { InlineConfigs } from './inline-configs.js';
import { PushConfigHandler } from './push-config-handler.js';
import { DEFAULT_PUSH_OPTIONS, type PushOptions } from './push-options.js';
import { PushSender } from './push-sender.js';
import { WebhookDeliveries } from './webhook-deliveries.js';
import { webhookPoster } from './webhook-post.js';

export { DEFAULT_PUSH_OPTIONS, PUSH_OPTIONS_SCHEMA, type PushOptions } from './push-options.js';

/** Push notifications, as the harness wires them in. */
export interface PushNotifications {
  /** Puts the four config calls in front of `inner`. */
  handler(inner: A2ARequestHandler): A2ARequestHandler;
  /** For `TaskEvents`: turn states this instance publishes go to the webhooks too. */
  turnRelay: TaskEventRelay;
  /** For the command path: replies this instance publishes go to the webhooks too. */
  replyRelay: StreamRelay;
  /** Stops retrying. */
  close(): void;
}

/** Push notifications when the config's `push.enabled` says so; undefined otherwise. */
export function createPushNotifications(deps: {
  db: AnyKysely;
  ownerOf: (context: ServerCallContext) => Owner;
  loadHead: (taskId: string, context: ServerCallContext) => Promise<unknown>;
  options: Partial<PushOptions> | undefined;
  logger: Logger;
}): PushNotifications | undefined {
  const options: PushOptions = { ...DEFAULT_PUSH_OPTIONS, ...deps.options };
  if (!options.enabled) return undefined;
  const { logger, loadHead } = deps;
  const configs = new PushConfigStore(deps.db, deps.ownerOf);
  const deliveries = new WebhookDeliveries({ post: webhookPoster(options), options, logger });
  const inline = new InlineConfigs(configs);
  const sender = new PushSender({ configs, deliveries, inline, options, logger });
  return {
    handler: (inner) => new PushConfigHandler(inner, { configs, inline, loadHead, options }),
    turnRelay: { send: (taskId, event) => sender.notify(taskId, event.event, event.turnId) },
    replyRelay: { send: (taskId, event) => sender.notify(taskId, event) },
    close: () => deliveries.close(),
  };
}

/** The card of an agent that sends push notifications. */
export function withPushNotifications(card: AgentCard): AgentCard {
  return { ...card, capabilities: { ...card.capabilities!, pushNotifications: true } };
}

type Relay<Sent extends unknown[]> = { send(...sent: Sent): unknown };

/**
 * Both relays, in order, each given all that is sent; either may be absent.
 * The pair is done when both say they are.
 */
export function bothRelays<Sent extends unknown[]>(
  first: Relay<Sent> | undefined,
  second: Relay<Sent> | undefined,
): Relay<Sent> | undefined {
  if (!first || !second) return first ?? second;
  return {
    send: (...sent) => {
      const waiting = [first.send(...sent), second.send(...sent)].filter(
        (wait): wait is Promise<unknown> => wait instanceof Promise,
      );
      if (waiting.length > 0) return Promise.all(waiting).then(() => undefined);
    },
  };
}
