import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AgentExecutor } from '@a2a-js/sdk/server';
import express from 'express';
// The library's own example agent, as its README runs it.
import { createExampleAgent } from 'a2a-commands/examples/agent';
import { echoExecutor } from 'a2a-commands/examples/echo-executor';

export interface ExampleAgent {
  url: string;
  close(): Promise<void>;
}

/** A message whose answer comes `HELD_MS` late, so that a cancel lands mid-answer. */
export const HELD_TEXT = 'never answered';
export const HELD_MS = 1_500;

/**
 * The example agent's executor, answering at once, except that the answer to
 * `HELD_TEXT` is held back, so other turns do not wait too.
 */
function holdingEcho(): AgentExecutor {
  const answering = echoExecutor(0);
  const holding = echoExecutor(HELD_MS);
  const held = new Set<string>();
  return {
    async execute(context, bus) {
      const text = context.userMessage.parts
        .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
        .join('');
      if (text !== HELD_TEXT) return answering.execute(context, bus);
      held.add(context.taskId);
      try {
        await holding.execute(context, bus);
      } finally {
        held.delete(context.taskId);
      }
    },
    // Each inner executor publishes CANCELED once: only the one running the task is asked.
    cancelTask: (taskId, bus) => (held.has(taskId) ? holding : answering).cancelTask(taskId, bus),
  };
}

/**
 * The example agent (/help, /echo) on a free port, its answer to `HELD_TEXT`
 * held back, plus a /spawn that starts a sub-task, to show a reply's `task_ref`.
 */
export async function startExampleAgent(): Promise<ExampleAgent> {
  const outer = express();
  const mounted: { app?: express.Express } = {};
  outer.use((req, res, next) => mounted.app!(req, res, next));
  const server: Server = await new Promise((resolve) => {
    const listening = outer.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const example = createExampleAgent(url, holdingEcho());
  mounted.app = example.app;
  example.server.registry.register({
    name: 'spawn',
    description: 'Runs a prompt as a sub-task',
    argument_hint: '<prompt>',
    run: async ({ args, createSubtask }) => {
      const sub = await createSubtask({ prompt: args });
      return { text: `started sub-task ${sub.id}`, task_ref: sub.id };
    },
  });
  return {
    url,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
