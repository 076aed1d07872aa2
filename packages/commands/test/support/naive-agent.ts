import { TaskState, type AgentCard } from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryTaskStore,
  type AgentExecutor,
} from '@a2a-js/sdk/server';
import { jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import express from 'express';
import { createExampleAgent } from '../../examples/agent.js';
import { echoExecutor } from '../../examples/echo-executor.js';
import { parseCommand } from '../../src/parse.js';
import type { CommandRegistry } from '../../src/registry.js';
import { replyMessage } from '../../src/server/reply.js';
import { EXT, listen, type Listening } from 'a2a-testing/http';

/**
 * The design this library avoids: commands handled by a decorator around the
 * agent's executor, replying through the SDK's event bus. Kept only to show,
 * test by test, what the SDK does to it.
 */
function naiveCommandExecutor(inner: AgentExecutor, registry: CommandRegistry): AgentExecutor {
  return {
    async execute(context, bus) {
      const parsed = parseCommand(context.userMessage, registry);
      if (!parsed) return inner.execute(context, bus);
      if (context.context.requestedExtensions?.includes(EXT))
        context.context.addActivatedExtension(EXT);
      const { taskId: id, contextId, task } = context;
      const state = task?.status?.state ?? TaskState.TASK_STATE_INPUT_REQUIRED;
      const result = await parsed.command.run({ args: parsed.args } as never);
      const reply = replyMessage(
        { id, contextId },
        parsed.name,
        typeof result === 'string' ? { text: result } : result,
      );
      bus.publish(
        AgentEvent.task({
          id,
          contextId,
          status: { state, message: undefined, timestamp: undefined },
          history: task ? [] : [context.userMessage],
          artifacts: [],
          metadata: task?.metadata ?? {},
        }),
      );
      bus.publish(
        AgentEvent.statusUpdate({
          taskId: id,
          contextId,
          status: { state, message: reply, timestamp: new Date().toISOString() },
          metadata: { command: parsed.name },
        }),
      );
    },
    cancelTask: (taskId, bus) => inner.cancelTask(taskId, bus),
  };
}

/** The example agent's card and commands, served the naive way on the bare SDK. */
export async function startNaiveAgent(turnDelayMs: number): Promise<Listening> {
  const outer = express();
  const mounted: { app?: express.Express } = {};
  outer.use((req, res, next) => mounted.app!(req, res, next));
  const listening = await listen(outer);
  const { server } = createExampleAgent(listening.baseUrl);
  const card: AgentCard = server.card.current;
  const executor = naiveCommandExecutor(echoExecutor(turnDelayMs), server.registry);
  const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  mounted.app = express().use(
    '/a2a/jsonrpc',
    jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }),
  );
  return listening;
}
