import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
// The library's own example agent, as its README runs it.
import { createExampleAgent } from 'a2a-commands/examples/agent';
import { echoExecutor } from 'a2a-commands/examples/echo-executor';

export interface ExampleAgent {
  url: string;
  close(): Promise<void>;
}

/**
 * The example agent (/help, /echo) on a free port, each answer `turnDelayMs`
 * late, plus a /spawn that starts a sub-task, to show a reply's `task_ref`.
 */
export async function startExampleAgent(turnDelayMs = 0): Promise<ExampleAgent> {
  const outer = express();
  const mounted: { app?: express.Express } = {};
  outer.use((req, res, next) => mounted.app!(req, res, next));
  const server: Server = await new Promise((resolve) => {
    const listening = outer.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const example = createExampleAgent(url, echoExecutor(turnDelayMs));
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
