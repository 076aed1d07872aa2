import type { TaskPushNotificationConfig } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { PushConfigStore } from '../store/push-configs.js';

interface Waiting {
  config: TaskPushNotificationConfig;
  context: ServerCallContext;
  stored?: Promise<void>;
}

/**
 * Configs sent inside a SendMessage that starts a task
 * (`configuration.taskPushNotificationConfig`), by the message's id. The task
 * gets its id only as the message is accepted, so each is stored by whichever
 * comes first: the first event of the message's turn, which must reach the
 * webhook, or the call's own answer (a command's new task has no turn).
 */
export class InlineConfigs {
  private readonly waiting = new Map<string, Waiting>();

  constructor(private readonly configs: PushConfigStore) {}

  expect(messageId: string, config: TaskPushNotificationConfig, context: ServerCallContext): void {
    this.waiting.set(messageId, { config, context });
  }

  /** Stores the config `messageId` brought for `taskId`, once; later calls wait for that write. */
  store(messageId: string, taskId: string): Promise<void> {
    const waiting = this.waiting.get(messageId);
    if (!waiting) return Promise.resolve();
    waiting.stored ??= this.configs.save(taskId, waiting.context, { ...waiting.config, taskId });
    return waiting.stored;
  }

  /** Once the call has answered: what was not stored by then never will be. */
  forget(messageId: string): void {
    this.waiting.delete(messageId);
  }
}
