/**
 * Replies that must not disagree with themselves: a fork is not a
 * sub-task, `/tasks` draws the star its summary speaks of, only the newest
 * `/model` card checks the task's model, `/clear` leaves a line, and an idle
 * task does not look like an alert.
 */
import { TaskState } from '@a2a-js/sdk';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Entry, ReplyEntry } from '../src/a2a/transcript.js';
import { taskRows } from '../src/a2a/task-list.js';
import { ChatHeader } from '../src/components/ChatHeader.js';
import { Conversation } from '../src/components/Conversation.js';
import { ReplyCard } from '../src/components/ReplyCard.js';
import { StatePill } from '../src/components/StatePill.js';

afterEach(cleanup);

function reply(key: string, command: string, text: string, extra: Partial<ReplyEntry> = {}) {
  return { kind: 'reply', key, command, text, data: undefined, ...extra } satisfies ReplyEntry;
}

const models = (current: string) => ({
  current,
  models: [
    { id: 'openai/gpt-fast', provider: 'openai' },
    { id: 'openai/gpt-smart', provider: 'openai' },
  ],
});

describe('a fork is drawn as a fork', () => {
  it('its reply links to it as a fork, not as a sub-task', () => {
    render(
      <ReplyCard
        entry={reply('r1', 'fork', 'Forked this conversation', { taskRef: 'fork-1' })}
        onCommand={vi.fn()}
      />,
    );
    expect(screen.queryByRole('link', { name: /sub-task/ })).toBeNull();
    expect(screen.getByRole('link', { name: /Open fork/ }).getAttribute('href')).toBe(
      '#task=fork-1',
    );
  });

  it('its header says where it was forked from, not "Back to parent task"', () => {
    render(
      <ChatHeader
        title="Fork of Plan"
        parent={{ id: 'p1', title: 'Plan', fork: true }}
        sidebarId="s"
        sidebarOpen={false}
        onMenu={vi.fn()}
      />,
    );
    const link = screen.getByRole('link', { name: /Forked from/ });
    expect(link.textContent).not.toContain('parent');
    expect(link.getAttribute('href')).toBe('#task=p1');
  });

  it("the sidebar row of a task with the harness's forkOf is marked as a fork", () => {
    const task = (id: string, metadata: Record<string, unknown>) => ({
      id,
      contextId: 'c1',
      kind: 'task' as const,
      status: { state: TaskState.TASK_STATE_INPUT_REQUIRED, timestamp: '2026-01-01T00:00:00Z' },
      history: [],
      artifacts: [],
      metadata,
    });
    const rows = taskRows([], [
      task('p1', {}),
      task('f1', { 'a2a-commands': { parent: 'p1' }, 'a2a-harness': { forkOf: 'p1' } }),
      task('s1', { 'a2a-commands': { parent: 'p1' } }),
    ] as never);
    expect(rows.map((row) => [row.id, row.depth, row.fork ?? false])).toEqual([
      ['p1', 0, false],
      ['f1', 1, true],
      ['s1', 1, false],
    ]);
  });
});

describe('/tasks draws the star its summary speaks of', () => {
  it('the current task has a "*" and is called "this task"', () => {
    const data = {
      tasks: [
        { id: 't1', title: 'First', state: 'TASK_STATE_INPUT_REQUIRED', current: true },
        { id: 't2', title: 'Second', state: 'TASK_STATE_WORKING', current: false },
      ],
    };
    render(
      <ReplyCard
        entry={reply('r1', 'tasks', 'Tasks in this conversation (2 tasks; * is this one):', {
          data,
        })}
        onCommand={vi.fn()}
      />,
    );
    expect(screen.getByText(/\* is this one/)).toBeTruthy();
    const [current, other] = screen.getAllByRole('listitem');
    expect(current!.textContent).toMatch(/^\*First.*this task/);
    expect(other!.textContent).not.toContain('*');
    expect(other!.textContent).not.toContain('this task');
  });
});

describe('/model cards', () => {
  it('only the newest card checks a model; an older one claims nothing', () => {
    const entries: Entry[] = [
      reply('m1', 'model', 'Model: openai/gpt-fast', { data: models('openai/gpt-fast') }),
      reply('m2', 'model', 'Model set to openai/gpt-smart (was openai/gpt-fast).', {
        data: models('openai/gpt-smart'),
      }),
    ];
    render(<Conversation entries={entries} thinking={false} onCommand={vi.fn()} empty={null} />);
    const [older, newer] = screen.getAllByRole('group', { name: 'Choose a model' });
    const pressed = (group: HTMLElement) =>
      within(group)
        .getAllByRole('button')
        .filter((button) => button.getAttribute('aria-pressed') === 'true')
        .map((button) => button.getAttribute('aria-label'));
    expect(pressed(newer!)).toEqual(['openai/gpt-smart']);
    expect(pressed(older!)).toEqual([]);
    expect(older!.textContent).not.toContain('✓');
  });

  it('an unknown model (data.error) is marked as needing attention', () => {
    render(
      <ReplyCard
        entry={reply('m1', 'model', 'Unknown model "gpt-99".', {
          data: { error: 'unknown_model', ...models('openai/gpt-fast') },
        })}
        onCommand={vi.fn()}
      />,
    );
    expect(screen.getByRole('article').className).toContain('reply--error');
  });
});

describe('an idle task', () => {
  it('reads as quiet words, not an alert-coloured "input required" pill', () => {
    const { container } = render(<StatePill state={TaskState.TASK_STATE_INPUT_REQUIRED} />);
    expect(container.textContent).toBe('ready');
    expect(container.firstElementChild!.className).toContain('state--quiet');
  });
});
