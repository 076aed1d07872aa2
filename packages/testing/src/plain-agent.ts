import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AGENT_CARD_PATH, Role, TaskState, type AgentCard, type Part } from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryTaskStore,
  type AgentExecutor,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import express from 'express';

export interface PlainAgentOptions {
  /** Each word of the answer streams this late. */
  wordDelayMs?: number;
  /** The key the card asks for; without one the card asks for none. */
  apiKey?: string;
  /** Where the card says the agent is, when a proxy stands in front of it. */
  publicUrl?: string;
}

export interface PlainAgent {
  url: string;
  /** The headers of every request, the card's included. */
  requests: { path: string; headers: IncomingHttpHeaders }[];
  /** Stops at once, cutting every open stream. */
  close(): Promise<void>;
}

const text = (value: string): Part => ({
  content: { $case: 'text', value },
  mediaType: 'text/plain',
  filename: '',
  metadata: undefined,
});

/** Answers `You said: <text>`, a word at a time as chunks of its `answer` artifact, then waits for more. */
function streamingEcho(wordDelayMs: number): AgentExecutor {
  return {
    async execute({ taskId, contextId, task, userMessage }, bus) {
      bus.publish(
        AgentEvent.task({
          id: taskId,
          contextId,
          status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: undefined },
          history: task ? [] : [userMessage],
          artifacts: [],
          metadata: {},
        }),
      );
      const said = userMessage.parts
        .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
        .join('');
      const answer = `You said: ${said}`;
      const artifactId = crypto.randomUUID();
      const words = answer.match(/\S+\s*/g) ?? [];
      for (const [index, word] of words.entries()) {
        bus.publish(
          AgentEvent.artifactUpdate({
            taskId,
            contextId,
            artifact: {
              artifactId,
              name: 'answer',
              description: '',
              parts: [text(word)],
              metadata: undefined,
              extensions: [],
            },
            append: index > 0,
            lastChunk: false,
            metadata: undefined,
          }),
        );
        await new Promise((resolve) => setTimeout(resolve, wordDelayMs));
      }
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          metadata: undefined,
          status: {
            state: TaskState.TASK_STATE_INPUT_REQUIRED,
            message: {
              messageId: crypto.randomUUID(),
              taskId,
              contextId,
              role: Role.ROLE_AGENT,
              parts: [text(answer)],
              metadata: undefined,
              extensions: [],
              referenceTaskIds: [],
            },
            timestamp: new Date().toISOString(),
          },
        }),
      );
    },
    async cancelTask(taskId, bus) {
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId: '',
          metadata: undefined,
          status: {
            state: TaskState.TASK_STATE_CANCELED,
            message: undefined,
            timestamp: undefined,
          },
        }),
      );
    },
  };
}

/**
 * An A2A agent on the bare SDK, without the commands extension (the chats
 * and the ACP bridge must give it plain chat, with no completion and no
 * errors), that records the headers of every request. With `apiKey` its card
 * asks for a bearer key and every A2A call without that key gets 401.
 */
export async function startPlainAgent(options: PlainAgentOptions = {}): Promise<PlainAgent> {
  const app = express();
  const requests: PlainAgent['requests'] = [];
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const publicUrl = options.publicUrl ?? url;
  const keyed = options.apiKey !== undefined;
  const card: AgentCard = {
    name: 'Plain echo agent',
    description: 'Echoes messages; no commands extension.',
    version: '1.0.0',
    provider: undefined,
    supportedInterfaces: [
      {
        url: `${publicUrl}/a2a/jsonrpc`,
        protocolBinding: 'JSONRPC',
        tenant: '',
        protocolVersion: '1.0',
      },
    ],
    capabilities: { streaming: true, pushNotifications: false, extensions: [] },
    securitySchemes: keyed
      ? {
          bearer: {
            scheme: {
              $case: 'httpAuthSecurityScheme',
              value: { description: 'API key', scheme: 'bearer', bearerFormat: '' },
            },
          },
        }
      : {},
    securityRequirements: keyed ? [{ schemes: { bearer: { list: [] } } }] : [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
    signatures: [],
  };
  const requestHandler = new DefaultRequestHandler(
    card,
    new InMemoryTaskStore(),
    streamingEcho(options.wordDelayMs ?? 0),
  );
  app.use((req, res, next) => {
    requests.push({ path: req.path, headers: req.headers });
    next();
  });
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: requestHandler }));
  app.use('/a2a/jsonrpc', (req, res, next) => {
    if (keyed && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      res.status(401).json({ error: 'unauthorized' });
      return;
    }
    next();
  });
  app.use(
    '/a2a/jsonrpc',
    jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }),
  );
  return {
    url,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
