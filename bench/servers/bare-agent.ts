/**
 * The floor: a bare @a2a-js/sdk agent whose executor answers every message with
 * a completed Task. `--store sqlite --data <dir>` puts it on the harness's store (A′).
 * `--model offline` makes it A+model, the fair floor for the pass-through: the
 * executor runs the same AI SDK turn on the same offline model, in memory, its
 * deltas grouped into artifact updates as the harness groups them.
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
import {
  AnswerChunker,
  answerArtifact,
  createOfflineModel,
  DEFAULT_TURN_OPTIONS,
  HarnessTaskStore,
  openDatabase,
  streamModelTurn,
} from 'a2a-harness/internal';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2)
  args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1]!);

const textMessage = (taskId: string, contextId: string, text: string) => ({
  messageId: crypto.randomUUID(),
  taskId,
  contextId,
  role: Role.ROLE_AGENT,
  parts: [
    {
      content: { $case: 'text' as const, value: text },
      mediaType: 'text/plain',
      filename: '',
      metadata: undefined,
    },
  ],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

const answerDone: AgentExecutor = {
  async execute({ taskId, contextId, userMessage }, bus) {
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: {
          state: TaskState.TASK_STATE_COMPLETED,
          message: textMessage(taskId, contextId, 'done'),
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

const model = createOfflineModel();
const answerWithModel: AgentExecutor = {
  async execute({ taskId, contextId, userMessage }, bus) {
    const working = { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: '' };
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: { ...working, timestamp: new Date().toISOString() },
        history: [userMessage],
        artifacts: [],
        metadata: {},
      }),
    );
    const chunk = (text: string, first: boolean, last: boolean) =>
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId,
          contextId,
          artifact: answerArtifact(userMessage.messageId, text),
          append: !first,
          lastChunk: last,
          metadata: undefined,
        }),
      );
    const chunker = new AnswerChunker(
      (text, first) => chunk(text, first, false),
      DEFAULT_TURN_OPTIONS,
    );
    const prompt = userMessage.parts
      .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
      .join('\n');
    const result = await streamModelTurn({
      model,
      modelId: 'offline/echo',
      messages: [{ role: 'user', content: prompt }],
      onDelta: (text) => chunker.push(text),
    });
    if (chunker.close()) chunk('', false, true);
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: {
          state: TaskState.TASK_STATE_INPUT_REQUIRED,
          message: textMessage(taskId, contextId, result.text),
          timestamp: new Date().toISOString(),
        },
        metadata: undefined,
      }),
    );
  },
  async cancelTask() {},
};
const executor = args.get('model') === 'offline' ? answerWithModel : answerDone;

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

// A clean exit on the bench's SIGTERM, so that `--cpu-prof` can write its profile.
process.on('SIGTERM', () => process.exit(0));
