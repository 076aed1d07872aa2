import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { App } from '../src/App.js';

/*
 * Opening a task whose turn is running: GetTask says working, and the chat
 * subscribes. When the turn ends in between, the subscription's snapshot is
 * all that comes (idle, without history); the answer must still be shown.
 */

const QUESTION = { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'a question' }] };
const ANSWER = { messageId: 'm2', role: 'ROLE_AGENT', parts: [{ text: 'the answer' }] };
const task = (state: string, history: unknown[]) => ({
  id: 't1',
  contextId: 'c1',
  status: { state, ...(state === 'TASK_STATE_INPUT_REQUIRED' ? { message: ANSWER } : {}) },
  history,
  artifacts: [],
});

function agentWhoseTurnEndsWhileSubscribing(origin: string): void {
  let reads = 0;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    if (String(input).endsWith('/.well-known/agent-card.json')) {
      return Response.json({
        name: 'test agent',
        description: 'An agent for tests',
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
    if (method === 'SubscribeToTask') {
      const snapshot = {
        jsonrpc: '2.0',
        id,
        result: { task: task('TASK_STATE_INPUT_REQUIRED', []) },
      };
      // Stays open, as the harness keeps subscriptions to idle tasks open.
      const body = new ReadableStream<Uint8Array>({
        start: (controller) =>
          controller.enqueue(new TextEncoder().encode(`data: ${JSON.stringify(snapshot)}\n\n`)),
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    }
    const result =
      method === 'ListTasks'
        ? { tasks: [], nextPageToken: '', pageSize: 50, totalSize: 0 }
        : reads++ === 0
          ? task('TASK_STATE_WORKING', [QUESTION])
          : task('TASK_STATE_INPUT_REQUIRED', [QUESTION, ANSWER]);
    return Response.json({ jsonrpc: '2.0', id, result });
  });
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

it('a turn that ends between GetTask and SubscribeToTask still shows its answer', async () => {
  agentWhoseTurnEndsWhileSubscribing(window.location.origin);
  render(<App />);
  expect((await screen.findAllByText('a question')).length).toBeGreaterThan(0);
  expect((await screen.findAllByText('the answer')).length).toBeGreaterThan(0);
});
