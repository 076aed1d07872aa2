import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../src/App.js';
import { PHONE_WIDTH_QUERY } from '../src/state/use-drawer-focus.js';
import { fakeAgent } from './fake-agent.js';

beforeEach(() => {
  window.sessionStorage.clear();
  window.localStorage.clear();
  window.history.replaceState(null, '', '/ui/');
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** jsdom has no layout: say which width the page has. */
function viewport(phone: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: phone && query === PHONE_WIDTH_QUERY,
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}

async function connected() {
  fakeAgent(window.location.origin, 'JSONRPC', { requireKey: false });
  render(<App />);
  await screen.findByText('Connected to test agent');
  return screen.getByRole('combobox', { name: 'Message' });
}

describe('where focus goes', () => {
  it('the message box has focus once the page has connected', async () => {
    viewport(false);
    const composer = await connected();
    await waitFor(() => expect(document.activeElement).toBe(composer));
  });

  it('"New chat" puts focus in the message box', async () => {
    viewport(false);
    const user = userEvent.setup();
    const composer = await connected();
    await user.click(screen.getByRole('button', { name: 'New chat' }));
    await waitFor(() => expect(document.activeElement).toBe(composer));
  });

  it('a skip link, first in the tab order, takes focus to the message box', async () => {
    viewport(false);
    const user = userEvent.setup();
    const composer = await connected();
    await waitFor(() => expect(document.activeElement).toBe(composer));
    // Before the sidebar's first control (jsdom applies no CSS, so the drawer's
    // close button counts) comes the skip link.
    screen.getByRole('button', { name: 'Close the task list' }).focus();
    await user.tab({ shift: true });
    const skip = screen.getByRole('link', { name: 'Skip to the message box' });
    expect(document.activeElement).toBe(skip);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(document.activeElement).toBe(composer));
    // The link does not touch the hash, which names the open task.
    expect(window.location.hash).toBe('');
  });

  it('the phone drawer takes focus, keeps Tab inside, and Esc gives focus back to the menu button', async () => {
    viewport(true);
    const user = userEvent.setup();
    await connected();
    const menuButton = screen.getByRole('button', { name: 'Show the task list' });
    await user.click(menuButton);
    const drawer = document.getElementById('sidebar')!;
    const close = screen.getByRole('button', { name: 'Close the task list' });
    await waitFor(() => expect(document.activeElement).toBe(close));

    // Around the drawer both ways, never out of it.
    for (let i = 0; i < 12; i++) {
      await user.tab();
      expect(drawer.contains(document.activeElement)).toBe(true);
    }
    await user.tab({ shift: true });
    expect(drawer.contains(document.activeElement)).toBe(true);
    close.focus();
    await user.tab({ shift: true });
    expect(drawer.contains(document.activeElement)).toBe(true);
    expect(document.activeElement).not.toBe(close);

    await user.keyboard('{Escape}');
    expect(menuButton.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(menuButton);
  });
});
