import { createElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { commandReply, chunk } from 'a2a-chat-core/testing';
import { applyEvent, type Entry } from '../transcript.js';
import { frame, renderInk, type Rendered } from '../test-ink.js';
import { EntryView } from './EntryView.js';
import { ReplyCard } from './ReplyCard.js';

let app: Rendered | undefined;
afterEach(() => app?.unmount());

function reply(...args: Parameters<typeof commandReply>): Extract<Entry, { kind: 'reply' }> {
  return applyEvent([], commandReply(...args))[0] as Extract<Entry, { kind: 'reply' }>;
}

const MODELS = {
  current: 'offline/echo',
  models: [
    { id: 'offline/echo', provider: 'offline' },
    { id: 'openai/gpt-x', provider: 'openai' },
  ],
};

describe('ReplyCard', () => {
  it('draws a reply apart, tagged with its command', async () => {
    app = await renderInk(createElement(ReplyCard, { entry: reply('status', 'Idle, 2 turns') }));
    expect(frame(app)).toBe('┃ /status · command reply\n┃ Idle, 2 turns');
  });

  it("turns /model's data into a list, the current model marked", async () => {
    const text = 'Model: offline/echo\n\nModels:\n* offline/echo\n  openai/gpt-x';
    app = await renderInk(
      createElement(ReplyCard, { entry: reply('model', text, { data: MODELS }) }),
    );
    expect(frame(app).split('\n')).toEqual([
      '┃ /model · command reply',
      '┃ Model: offline/echo',
      '┃   ● offline/echo  offline',
      '┃   ○ openai/gpt-x  openai',
    ]);
  });

  it('highlights the choice while its picker has the keys, and says how to pick', async () => {
    const entry = reply('model', 'Model: offline/echo', { data: MODELS });
    app = await renderInk(createElement(ReplyCard, { entry, selected: 1 }));
    const lines = frame(app).split('\n');
    expect(lines[2]).toBe('┃   ● offline/echo  offline');
    expect(lines[3]).toBe('┃ ❯ ○ openai/gpt-x  openai');
    expect(lines[4]).toContain('↑↓ choose · Enter switches to it');
  });

  it('shows a task_ref as a link, with the key that follows it', async () => {
    const entry = reply('spawn', 'Started sub-task s-123.', { taskRef: 's-123' });
    app = await renderInk(createElement(ReplyCard, { entry, linkKey: 'Ctrl+T' }));
    expect(frame(app)).toContain('┃ ↳ sub-task s-123 · Ctrl+T opens it');
  });

  it("lists /tasks' tasks to open", async () => {
    const data = {
      tasks: [
        {
          id: '019ade2f-4c1a-7b3e-9f00-3a1b2c3d4e5f',
          title: 'Main',
          state: 'TASK_STATE_INPUT_REQUIRED',
          current: true,
        },
        {
          id: '019ade2f-4c1a-7d21-8a77-90ab12cd34ef',
          title: '/spawn haiku',
          state: 'TASK_STATE_COMPLETED',
          current: false,
        },
      ],
    };
    app = await renderInk(createElement(ReplyCard, { entry: reply('tasks', 'Tasks:', { data }) }));
    expect(frame(app)).toContain(
      '●   Main          input required · 2c3d4e5f'.replace('●   ', '● '),
    );
    expect(frame(app)).toContain('○ /spawn haiku  completed · 12cd34ef');
  });

  it('/tasks as a tree: sub-tasks and forks under the task they came from, never above it', async () => {
    const main = '019ade2f-4c1a-7b3e-9f00-3a1b2c3d4e5f';
    const task = (id: string, title: string, extra = {}) => ({
      id,
      title,
      state: 'TASK_STATE_INPUT_REQUIRED',
      current: id === main,
      ...extra,
    });
    // Newest activity first, as the harness sends it: the sub-task ahead of its parent.
    const data = {
      tasks: [
        task('019ade2f-4c1a-7d21-8a77-000000000001', '/spawn haiku', { parent: main }),
        task('019ade2f-4c1a-7d21-8a77-000000000002', 'deeper', {
          parent: '019ade2f-4c1a-7d21-8a77-000000000001',
        }),
        task(main, 'Main'),
        task('019ade2f-4c1a-7d21-8a77-000000000003', 'Fork of Main', { parent: main, fork: true }),
        task('019ade2f-4c1a-7d21-8a77-000000000004', 'Other'),
      ],
    };
    app = await renderInk(createElement(ReplyCard, { entry: reply('tasks', 'Tasks:', { data }) }));
    const rows = frame(app)
      .split('\n')
      .slice(2)
      .map((line) => line.replace(/\s+input required · \w+$/, ''));
    expect(rows).toEqual([
      '┃   ● Main',
      '┃   ○ ↳ /spawn haiku',
      '┃   ○   ↳ deeper',
      '┃   ○ ⑂ Fork of Main',
      '┃   ○ Other',
    ]);
  });

  it('/tasks as the harness words it: the list shows once, as the picker', async () => {
    const main = '019ade2f-4c1a-7b3e-9f00-3a1b2c3d4e5f';
    const sub = '019ade2f-4c1a-7d21-8a77-90ab12cd34ef';
    const text = [
      'Tasks in this conversation (2 tasks; * is this one):',
      `* ${main}  input required  Main`,
      `  ${sub}  completed       haiku`,
    ].join('\n');
    const data = {
      tasks: [
        { id: main, title: 'Main', state: 'TASK_STATE_INPUT_REQUIRED', current: true },
        { id: sub, title: 'haiku', state: 'TASK_STATE_COMPLETED', current: false },
      ],
    };
    app = await renderInk(createElement(ReplyCard, { entry: reply('tasks', text, { data }) }));
    const shown = frame(app);
    expect(shown).toContain('┃ Tasks in this conversation (2 tasks; * is this one):');
    expect(shown.split('haiku').length - 1).toBe(1);
    expect(shown.split('Main').length - 1).toBe(1);
  });

  it('a hostile reply cannot drive the terminal: no escape reaches the screen', async () => {
    const entry = reply('model', 'Model:\u001b[2J\u001b]0;owned\u0007 x\u009b31m', {
      data: {
        current: 'x',
        models: [
          { id: 'x', provider: '\u001b[31mred' },
          { id: 'evil\u001b[2Jid', provider: 'p' },
        ],
      },
    });
    app = await renderInk(createElement(ReplyCard, { entry, selected: 0 }));
    // eslint-disable-next-line no-control-regex
    const raw = (app.lastFrame() ?? '').replace(/\u001b\[[0-9;]*m/g, '');
    // eslint-disable-next-line no-control-regex
    expect(raw).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(frame(app)).toContain('┃ Model: x');
    // An id that would not survive being sent back is not offered.
    expect(frame(app)).not.toContain('evil');
  });
});

describe('EntryView', () => {
  it('streams model output with a cursor, apart from replies', async () => {
    const [entry] = applyEvent([], chunk('partial answer', { first: true }));
    app = await renderInk(createElement(EntryView, { entry: entry! }));
    expect(frame(app)).toBe('partial answer▍');
  });
});
