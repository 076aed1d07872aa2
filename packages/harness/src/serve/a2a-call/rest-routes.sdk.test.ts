/**
 * The HTTP+JSON route table in rest-routes.ts is a copy of the SDK's, which
 * the SDK does not export. This pins the copy: the SDK's own REST client
 * transports (1.0, with and without a tenant, and 0.3) call every operation
 * against the SDK's own REST handler over loopback HTTP, and for each request
 * the harness's decision must name the operation the SDK's router ran. An
 * SDK upgrade that moves a route fails here.
 */
import { Role, type AgentCard } from '@a2a-js/sdk';
import { RestTransportFactory, type Transport } from '@a2a-js/sdk/client';
import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import type { A2ARequestHandler } from '@a2a-js/sdk/server';
import { restHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type Listening } from 'a2a-testing/http';
import { requestsLegacyVersion } from '../legacy-v03/version.js';
import type { A2AMethod } from './a2a-call.js';
import { restCallOf } from './rest-routes.js';

/** The operation each of the SDK's request handler methods serves. */
const OPERATION_OF: Record<Exclude<keyof A2ARequestHandler, 'getAgentCard'>, A2AMethod> = {
  getAuthenticatedExtendedAgentCard: 'GetExtendedAgentCard',
  sendMessage: 'SendMessage',
  sendMessageStream: 'SendStreamingMessage',
  getTask: 'GetTask',
  listTasks: 'ListTasks',
  cancelTask: 'CancelTask',
  resubscribe: 'SubscribeToTask',
  createTaskPushNotificationConfig: 'CreateTaskPushNotificationConfig',
  getTaskPushNotificationConfig: 'GetTaskPushNotificationConfig',
  listTaskPushNotificationConfigs: 'ListTaskPushNotificationConfigs',
  deleteTaskPushNotificationConfig: 'DeleteTaskPushNotificationConfig',
};

/** What one request was: the harness's decision, and what the SDK's router ran. */
interface Seen {
  decided?: A2AMethod | undefined;
  ran?: A2AMethod;
}
let seen: Seen = {};

function cardOf(url: string): AgentCard {
  const iface = (protocolVersion: string) => ({
    url,
    protocolBinding: 'HTTP+JSON',
    protocolVersion,
    tenant: '',
  });
  return {
    name: 'routes',
    description: 'routes',
    version: '1',
    supportedInterfaces: [iface('1.0'), iface('0.3')],
    capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
  } as unknown as AgentCard;
}

/** A request handler that records which operation the SDK's router called, then refuses it. */
function recordingHandler(card: () => AgentCard): A2ARequestHandler {
  const ran = (name: keyof typeof OPERATION_OF) => {
    seen.ran = OPERATION_OF[name];
    return new TaskNotFoundError('recorded');
  };
  const handler: Record<string, unknown> = { getAgentCard: async () => card() };
  for (const name of Object.keys(OPERATION_OF) as (keyof typeof OPERATION_OF)[]) {
    handler[name] =
      name === 'sendMessageStream' || name === 'resubscribe'
        ? async function* () {
            yield* []; // a stream that fails before its first event
            throw ran(name);
          }
        : async () => {
            throw ran(name);
          };
  }
  return handler as unknown as A2ARequestHandler;
}

let server: Listening;
let url: string;
beforeAll(async () => {
  const app = express();
  app.use('/rest', (req, _res, next) => {
    // The decision the harness makes, on the path as the client sent it.
    const path = req.url.split('?')[0] ?? '';
    seen.decided = restCallOf(req.method, path, requestsLegacyVersion(req))?.call.method;
    next();
  });
  app.use(
    '/rest',
    restHandler({
      requestHandler: recordingHandler(() => cardOf(url)),
      userBuilder: UserBuilder.noAuthentication,
      legacyCompat: { enabled: true },
    }),
  );
  server = await listen(app);
  url = `${server.baseUrl}/rest`;
});
afterAll(() => server?.close());

const TASK = 'task-1';
const message = {
  messageId: 'm1',
  role: Role.ROLE_USER,
  parts: [{ content: { $case: 'text', value: 'hi' } }],
};

/** Each operation as the SDK's client transport calls it. */
const CALLS: Record<A2AMethod, (t: Transport, tenant: string) => Promise<unknown>> = {
  GetExtendedAgentCard: (t, tenant) => t.getExtendedAgentCard({ tenant }),
  SendMessage: (t, tenant) => t.sendMessage({ tenant, message } as never),
  SendStreamingMessage: (t, tenant) => drain(t.sendMessageStream({ tenant, message } as never)),
  GetTask: (t, tenant) => t.getTask({ tenant, id: TASK } as never),
  ListTasks: (t, tenant) => t.listTasks({ tenant } as never),
  CancelTask: (t, tenant) => t.cancelTask({ tenant, id: TASK } as never),
  SubscribeToTask: (t, tenant) => drain(t.resubscribeTask({ tenant, id: TASK } as never)),
  CreateTaskPushNotificationConfig: (t, tenant) =>
    t.createTaskPushNotificationConfig({
      tenant,
      taskId: TASK,
      id: 'c1',
      url: 'http://127.0.0.1:9/hook',
    } as never),
  GetTaskPushNotificationConfig: (t, tenant) =>
    t.getTaskPushNotificationConfig({ tenant, taskId: TASK, id: 'c1' } as never),
  ListTaskPushNotificationConfigs: (t, tenant) =>
    t.listTaskPushNotificationConfig({ tenant, taskId: TASK } as never),
  DeleteTaskPushNotificationConfig: (t, tenant) =>
    t.deleteTaskPushNotificationConfig({ tenant, taskId: TASK, id: 'c1' } as never),
};

async function drain(stream: AsyncGenerator<unknown>): Promise<void> {
  for await (const _event of stream);
}

const EVERY = Object.keys(CALLS) as A2AMethod[];
const versions = [
  { name: '1.0', version: '1.0', tenant: '', methods: EVERY },
  { name: '1.0 behind a tenant', version: '1.0', tenant: 'acme', methods: EVERY },
  // 0.3 has no ListTasks: its client refuses it without a request.
  { name: '0.3', version: '0.3', tenant: '', methods: EVERY.filter((m) => m !== 'ListTasks') },
];

describe.each(versions)("the SDK's $name REST client", ({ version, tenant, methods }) => {
  it.each(methods)('%s: the harness decides the operation the SDK runs', async (method) => {
    const card = cardOf(url);
    card.supportedInterfaces = card.supportedInterfaces.filter(
      (i) => i.protocolVersion === version,
    );
    const transport = await new RestTransportFactory({ legacyCompat: { enabled: true } }).create(
      url,
      card,
    );
    seen = {};
    await CALLS[method](transport, tenant).catch(() => undefined);
    expect(seen.ran).toBeDefined();
    expect(seen.decided).toBe(seen.ran);
  });
});
