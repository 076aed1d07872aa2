import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../src/App.js';
import { fakeAgent } from './fake-agent.js';

const KEY = 'alice-key-0123456789abcdef';

beforeEach(() => {
  window.sessionStorage.clear();
  window.localStorage.clear();
  window.history.replaceState(null, '', '/ui/');
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the chat with an agent that needs an API key', () => {
  it('asks for the key before any call, then connects with it and keeps it for this tab only', async () => {
    const user = userEvent.setup();
    const seen = fakeAgent(window.location.origin, 'JSONRPC', { requireKey: true, accepts: KEY });
    render(<App />);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This agent needs an API key');
    const keyField = screen.getByLabelText('API key');
    await waitFor(() => expect(document.activeElement).toBe(keyField));
    expect(screen.getByRole('combobox', { name: 'Message' })).toHaveProperty('disabled', true);
    expect(seen.map((call) => new URL(call.url).pathname)).toEqual([
      '/.well-known/agent-card.json',
    ]);

    await user.type(keyField, `${KEY}{Enter}`);
    await screen.findByText('Connected to test agent with an API key');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(window.sessionStorage.getItem(`a2a-web-chat:v1:api-key:${window.location.origin}`)).toBe(
      KEY,
    );
    const local = Object.values({ ...window.localStorage }).join('\n');
    expect(local).not.toContain(KEY);
    expect(window.location.href).not.toContain(KEY);
    expect(document.body.textContent).not.toContain(KEY);
    // Every call after the card carried the key.
    for (const call of seen.filter((c) => !c.url.endsWith('agent-card.json'))) {
      expect(call.authorization).toBe(`Bearer ${KEY}`);
    }
  });

  it('a refused key is said so as the page connects, and the key field is one click away', async () => {
    const user = userEvent.setup();
    fakeAgent(window.location.origin, 'JSONRPC', { requireKey: true, accepts: KEY });
    // A key kept from earlier in this tab (a reload) is used at once.
    window.sessionStorage.setItem(`a2a-web-chat:v1:api-key:${window.location.origin}`, 'stale-key');
    render(<App />);
    // The key is checked as the page connects: it is never shown as connected.
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The agent refused the API key');
    expect(alert.textContent).not.toContain('stale-key');
    expect(screen.queryByText('Connected to test agent with an API key')).toBeNull();
    const keyField = screen.getByLabelText('API key');
    expect(keyField.getAttribute('aria-invalid')).toBe('true');

    await user.click(screen.getByRole('button', { name: 'Change the API key' }));
    expect(document.activeElement).toBe(keyField);
  });
});
