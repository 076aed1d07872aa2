import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Entry } from '../src/a2a/transcript.js';
import { Conversation } from '../src/components/Conversation.js';

afterEach(cleanup);

describe('Conversation: notes and the /clear divider', () => {
  it('draws a note apart from the model, and a divider after /clear', () => {
    const entries: Entry[] = [
      { kind: 'user', key: 'u1', text: 'hi', pending: false },
      { kind: 'note', key: 'n1', text: 'The model failed.', tone: 'warn', from: 'agent' },
      { kind: 'divider', key: 'd1', text: "Context cleared: the model's context starts here" },
    ];
    const { container } = render(
      <Conversation entries={entries} thinking={false} onCommand={vi.fn()} empty={null} />,
    );
    const items = [...container.querySelectorAll('.entry')];
    expect(items.map((item) => item.className)).toEqual([
      'entry entry--user',
      'entry entry--note',
      'entry entry--divider',
    ]);
    expect(items[1]!.querySelector('.msg--note')!.textContent).toBe(
      'Note from the agent: The model failed.',
    );
    expect(screen.getByRole('separator').getAttribute('aria-label')).toBe(
      "Context cleared: the model's context starts here",
    );
  });
});
