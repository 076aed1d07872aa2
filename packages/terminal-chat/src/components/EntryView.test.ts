import { createElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Entry } from '../transcript.js';
import { frame, renderInk, type Rendered } from '../test-ink.js';
import { EntryView } from './EntryView.js';

let app: Rendered | undefined;
afterEach(() => app?.unmount());

function answer(fields: Partial<Extract<Entry, { kind: 'agent' }>>): Entry {
  return { kind: 'agent', key: 'a', text: '', streaming: false, preview: false, ...fields };
}

describe('EntryView: an answer', () => {
  it('joined mid-answer without the answer so far: says so instead of drawing a fragment', async () => {
    const entry = answer({ text: ' .9 .10', streaming: true, preview: true, partial: true });
    app = await renderInk(createElement(EntryView, { entry }));
    expect(frame(app)).toBe('(answer in progress…)');
  });

  it('stopped with /stop: the answer so far, marked stopped', async () => {
    app = await renderInk(
      createElement(EntryView, { entry: answer({ text: 'Once upon a', stopped: true }) }),
    );
    expect(frame(app)).toBe('Once upon a [stopped]');
  });
});

describe('EntryView: notes and dividers', () => {
  it('a note is a line in its tone; /clear leaves a divider', async () => {
    app = await renderInk(
      createElement(EntryView, {
        entry: {
          kind: 'note',
          key: 'n',
          text: 'The task was canceled.',
          tone: 'warn',
          from: 'agent',
        },
      }),
    );
    expect(frame(app)).toBe('• The task was canceled.');
    app.unmount();
    app = await renderInk(
      createElement(EntryView, {
        entry: { kind: 'divider', key: 'd', text: 'Context cleared' },
      }),
    );
    expect(frame(app)).toBe('──── Context cleared ────');
  });
});
