import express from 'express';
import type { AgentExecutor } from '@a2a-js/sdk/server';
import { createExampleAgent } from '../../examples/agent.js';
import { echoExecutor } from '../../examples/echo-executor.js';
import { CommandError } from '../../src/errors.js';
import { listen, type Listening } from 'a2a-testing/http';

export interface RunningAgent extends Listening {
  server: ReturnType<typeof createExampleAgent>['server'];
  /** Every message text the agent's executor was given. */
  executorSaw: string[];
}

/**
 * The example agent on a free port, with a few more commands registered at run
 * time (SEMANTICS §1) to reach the rest of the rules, and a spy on its executor.
 */
export async function startExampleAgent(turnDelayMs = 0): Promise<RunningAgent> {
  const outer = express();
  const mounted: { app?: express.Express } = {};
  outer.use((req, res, next) => mounted.app!(req, res, next));
  const listening = await listen(outer);
  const executorSaw: string[] = [];
  const executor = spy(echoExecutor(turnDelayMs), executorSaw);
  const { app, server } = createExampleAgent(listening.baseUrl, executor);
  mounted.app = app;
  const registry = server.registry;
  registry.register({
    name: 'boom',
    description: 'Fails inside its handler',
    run: () => {
      throw new Error('ENOENT: /secret/path/api-key.txt at Object.<anonymous> (handler.ts:1:1)');
    },
  });
  registry.register({
    name: 'count',
    description: 'Counts to a number',
    argument_hint: '<n>',
    run: ({ args }) => {
      const n = Number(args);
      if (!Number.isInteger(n) || n < 1)
        throw new CommandError(`"${args}" is not a whole number; try /count 3`);
      return Array.from({ length: n }, (_, i) => String(i + 1)).join(' ');
    },
  });
  registry.register({
    name: 'set',
    description: 'Stores a value in the task metadata',
    argument_hint: '<key> <value>',
    run: async ({ args, updateMetadata }) => {
      const [key = '', ...rest] = args.split(' ');
      const stored = await updateMetadata((m) => ({ ...m, [key]: rest.join(' ') }));
      return { text: `${key} = ${String(stored[key])}`, data: stored };
    },
  });
  registry.register({
    name: 'spawn',
    description: 'Runs a prompt as a sub-task',
    argument_hint: '<prompt>',
    run: async ({ args, createSubtask }) => {
      const sub = await createSubtask({ prompt: args });
      return { text: `started sub-task ${sub.id}`, task_ref: sub.id };
    },
  });
  return { ...listening, server, executorSaw };
}

function spy(executor: AgentExecutor, saw: string[]): AgentExecutor {
  return {
    execute: (context, bus) => {
      for (const part of context.userMessage.parts) {
        if (part.content?.$case === 'text') saw.push(part.content.value);
      }
      return executor.execute(context, bus);
    },
    cancelTask: (taskId, bus) => executor.cancelTask(taskId, bus),
  };
}
