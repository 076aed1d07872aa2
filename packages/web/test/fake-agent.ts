import { vi } from 'vitest';

/*
 * An A2A agent behind a stubbed global `fetch`, for tests of what the chat
 * sends: the card, GetTask and ListTasks, and HTTP 401 for a missing or wrong
 * key in each binding's own error shape (as the harness answers).
 */

export type Binding = 'JSONRPC' | 'HTTP+JSON';

/** The card as the harness serves it, with one interface; with or without its bearer scheme. */
function cardJson(
  agentUrl: string,
  binding: Binding,
  requireKey: boolean,
): Record<string, unknown> {
  const path = binding === 'JSONRPC' ? '/a2a/jsonrpc' : '/a2a/rest';
  return {
    name: 'test agent',
    description: 'An agent for tests',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${agentUrl}${path}`, protocolBinding: binding, tenant: '', protocolVersion: '1.0' },
    ],
    capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false },
    ...(requireKey
      ? {
          securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
          securityRequirements: [{ schemes: { bearer: {} } }],
        }
      : {}),
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
  };
}

const TASK_JSON = {
  id: 't1',
  contextId: 'c1',
  status: { state: 'TASK_STATE_COMPLETED' },
  history: [],
  artifacts: [],
};

export interface Seen {
  url: string;
  authorization: string | null;
}

/**
 * An agent behind a stubbed `fetch`: the card is public; every other call
 * needs `Bearer <accepts>` when `accepts` is set (HTTP 401 otherwise, in the
 * binding's own error shape), and answers GetTask and ListTasks.
 */
export function fakeAgent(
  agentUrl: string,
  binding: Binding,
  options: { requireKey: boolean; accepts?: string },
): Seen[] {
  const seen: Seen[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const headers = new Headers(init?.headers);
    seen.push({ url, authorization: headers.get('authorization') });
    if (url.endsWith('/.well-known/agent-card.json')) {
      return Response.json(cardJson(agentUrl, binding, options.requireKey));
    }
    const rpc =
      binding === 'JSONRPC'
        ? (JSON.parse(String(init?.body)) as { id: number; method: string })
        : undefined;
    if (options.accepts && headers.get('authorization') !== `Bearer ${options.accepts}`) {
      const message = 'Unauthenticated: this agent needs a valid API key.';
      return Response.json(
        rpc
          ? { jsonrpc: '2.0', id: null, error: { code: -32000, message } }
          : { error: { code: 401, status: 'UNAUTHENTICATED', message, details: [] } },
        { status: 401, headers: { 'WWW-Authenticate': 'Bearer' } },
      );
    }
    const listing = rpc ? rpc.method === 'ListTasks' : url.includes('/tasks?');
    const result = listing
      ? { tasks: [TASK_JSON], nextPageToken: '', pageSize: 1, totalSize: 1 }
      : TASK_JSON;
    return Response.json(rpc ? { jsonrpc: '2.0', id: rpc.id, result } : result);
  });
  return seen;
}
