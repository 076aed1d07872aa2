import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { App } from '../src/App.js';
import { rememberTask, taskListScope } from '../src/a2a/known-tasks.js';
import { fakeAgent } from './fake-agent.js';

/*
 * What the page says before the agent has answered: after a reload on a task,
 * the header names that task (not "New chat"), and the sidebar names the agent
 * by its address until its card gives the name (not a made-up "A2A chat").
 */

beforeEach(() => {
  window.sessionStorage.clear();
  window.localStorage.clear();
  window.history.replaceState(null, '', '/ui/#task=t1');
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

it('names the task being reopened, and the agent by its address, before the agent answers', async () => {
  const origin = window.location.origin;
  rememberTask(window.localStorage, taskListScope(origin), {
    id: 't1',
    contextId: 'c1',
    title: 'My earlier chat',
  });
  fakeAgent(origin, 'JSONRPC', { requireKey: false });
  render(<App />);
  // The first paint, before the card is read.
  expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('My earlier chat');
  expect(document.querySelector('.brand-name')!.textContent).toBe(new URL(origin).host);
  expect(document.body.textContent).not.toContain('A2A chat');

  await screen.findByText('Connected to test agent');
  expect(document.querySelector('.brand-name')!.textContent).toBe('test agent');
});
