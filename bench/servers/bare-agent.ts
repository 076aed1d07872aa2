/**
 * The floor: a bare @a2a-js/sdk agent whose executor answers every message with
 * a completed Task. `--store sqlite --data <dir>` puts it on the harness's store (A′).
 */
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { AGENT_CARD_PATH, Role, TaskState, type AgentCard } from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryTaskStore,
  type AgentExecutor,
  type TaskStore,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import express from 'express';
import { HarnessTaskStore, openDatabase } from '../../packages/harness/src/store/index.js';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2)
  args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1]!);

const executor: AgentExecutor = {
  async execute({ taskId, contextId, userMessage }, bus) {
    const answer = {
      messageId: crypto.randomUUID(),
      taskId,
      contextId,
      role: Role.ROLE_AGENT,
      parts: [
        {
          content: { $case: 'text' as const, value: 'done' },
          mediaType: 'text/plain',
          filename: '',
          metadata: undefined,
        },
      ],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    };
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: {
          state: TaskState.TASK_STATE_COMPLETED,
          message: answer,
          timestamp: new Date().toISOString(),
        },
        history: [userMessage],
        artifacts: [],
        metadata: {},
      }),
    );
  },
  async cancelTask() {},
};

let store: TaskStore = new InMemoryTaskStore();
if (args.get('store') === 'sqlite') {
  const dir = args.get('data')!;
  mkdirSync(dir, { recursive: true });
  store = new HarnessTaskStore((await openDatabase(`sqlite:${path.join(dir, 'tasks.db')}`)).db);
}

const server = createServer();
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  const url = `http://127.0.0.1:${port}`;
  const card: AgentCard = {
    name: 'bare',
    description: 'The bare SDK floor',
    version: '1.0.0',
    provider: undefined,
    supportedInterfaces: [
      { url: `${url}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
    ],
    capabilities: { streaming: true, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
    signatures: [],
  };
  const requestHandler = new DefaultRequestHandler(card, store, executor);
  const app = express();
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: async () => card }));
  app.use(
    '/a2a/jsonrpc',
    jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }),
  );
  server.on('request', app);
  console.log(JSON.stringify({ url }));
});
