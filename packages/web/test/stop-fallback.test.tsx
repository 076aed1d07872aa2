import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { App } from '../src/App.js';

/*
 * Stop on an agent whose card lists no `/stop`: the chat falls back to
 * CancelTask, and says that this ends the task. The turn is running when the
 * task is opened, and the answer so far (the snapshot's `answer` artifact) stays.
 */

const QUESTION = { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'a question' }] };
const ANSWER_SO_FAR = {
  artifactId: 'answer-r1',
  name: 'answer',
  parts: [{ text: 'the answer so far' }],
};
const working = {
  id: 't1',
  contextId: 'c1',
  status: { state: 'TASK_STATE_WORKING' },
  history: [QUESTION],
  artifacts: [ANSWER_SO_FAR],
};

function agentWithoutStop(origin: string): string[] {
  const methods: string[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    if (String(input).endsWith('/.well-known/agent-card.json')) {
      return Response.json({
        name: 'test agent',
        description: 'An agent without commands',
        version: '1.0.0',
        supportedInterfaces: [
          { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        ],
        capabilities: { streaming: true },
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['text/plain'],
        skills: [],
      });
    }
    const { id, method } = JSON.parse(String(init?.body)) as { id: number; method: string };
    methods.push(method);
    if (method === 'SubscribeToTask') {
      const snapshot = { jsonrpc: '2.0', id, result: { task: working } };
      const body = new ReadableStream<Uint8Array>({
        start: (controller) =>
          controller.enqueue(new TextEncoder().encode(`data: ${JSON.stringify(snapshot)}\n\n`)),
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    }
    const result =
      method === 'ListTasks'
        ? { tasks: [], nextPageToken: '', pageSize: 50, totalSize: 0 }
        : method === 'CancelTask'
          ? { ...working, status: { state: 'TASK_STATE_CANCELED' } }
          : working;
    return Response.json({ jsonrpc: '2.0', id, result });
  });
  return methods;
}

beforeEach(() => {
  window.sessionStorage.clear();
  window.localStorage.clear();
  window.history.replaceState(null, '', '/ui/#task=t1');
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

it('without /stop on the card, Stop cancels the task and says that this ends it', async () => {
  const methods = agentWithoutStop(window.location.origin);
  render(<App />);
  expect((await screen.findAllByText('the answer so far')).length).toBeGreaterThan(0);
  await userEvent.setup().click(await screen.findByRole('button', { name: 'Stop' }));
  expect(await screen.findByText(/canceled, which ends it/)).toBeTruthy();
  expect(methods).toContain('CancelTask');
  expect(methods).not.toContain('SendStreamingMessage');
  expect(screen.getAllByText('the answer so far').length).toBeGreaterThan(0);
});
