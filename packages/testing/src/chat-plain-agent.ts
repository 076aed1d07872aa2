import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AGENT_CARD_PATH, Role, TaskState, type AgentCard } from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryTaskStore,
  type AgentExecutor,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import express from 'express';

export interface PlainAgent {
  url: string;
  close(): Promise<void>;
}

/** Answers every message with `You said: <text>` and waits for more. */
const echo: AgentExecutor = {
  async execute({ taskId, contextId, task, userMessage }, bus) {
    const text = userMessage.parts
      .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
      .join('');
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
    const answer = {
      messageId: crypto.randomUUID(),
      taskId,
      contextId,
      role: Role.ROLE_AGENT,
      parts: [
        {
          content: { $case: 'text' as const, value: `You said: ${text}` },
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
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        metadata: undefined,
        status: {
          state: TaskState.TASK_STATE_INPUT_REQUIRED,
          message: answer,
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
        status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: undefined },
      }),
    );
  },
};

/**
 * An A2A agent on the bare SDK, without the commands extension: the chat must
 * give it plain chat, with no completion and no errors.
 */
export async function startPlainAgent(): Promise<PlainAgent> {
  const app = express();
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const card: AgentCard = {
    name: 'Plain echo agent',
    description: 'Echoes messages; no commands extension.',
    version: '1.0.0',
    provider: undefined,
    supportedInterfaces: [
      { url: `${url}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
    ],
    capabilities: { streaming: true, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
    signatures: [],
  };
  const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), echo);
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: requestHandler }));
  app.use(
    '/a2a/jsonrpc',
    jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }),
  );
  return {
    url,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
