import { cleanup, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Entry, ReplyEntry } from '../src/a2a/transcript.js';
import { Conversation } from '../src/components/Conversation.js';
import { ReplyCard } from '../src/components/ReplyCard.js';
import { asModelData, isErrorReply, summaryOf } from '../src/components/reply-view.js';

afterEach(cleanup);

const MODELS = {
  current: 'openai/gpt-fast',
  models: [
    { id: 'offline/echo', provider: 'offline' },
    { id: 'openai/gpt-fast', provider: 'openai' },
    { id: 'openai/gpt-smart', provider: 'openai' },
  ],
};

function reply(command: string, text: string, extra: Partial<ReplyEntry> = {}): ReplyEntry {
  return { kind: 'reply', key: `r-${command}`, command, text, data: undefined, ...extra };
}

describe('ReplyCard', () => {
  it('is a card tagged /name with the reply text', () => {
    render(<ReplyCard entry={reply('help', 'Commands:\n/help  List')} onCommand={vi.fn()} />);
    const card = screen.getByRole('article', { name: '/help reply' });
    expect(within(card).getByText('/help').className).toBe('reply-tag');
    expect(card.querySelector('pre')!.textContent).toBe('Commands:\n/help  List');
  });

  it("renders /model's data part as a picker that sends /model <id>", async () => {
    const onCommand = vi.fn(async () => true);
    const text = 'Model: openai/gpt-fast (the server default)\n\nModels:\n* openai/gpt-fast';
    render(<ReplyCard entry={reply('model', text, { data: MODELS })} onCommand={onCommand} />);
    const picker = screen.getByRole('group', { name: 'Choose a model' });
    const buttons = within(picker).getAllByRole('button');
    expect(buttons.map((button) => button.getAttribute('aria-label'))).toEqual([
      'offline/echo',
      'openai/gpt-fast',
      'openai/gpt-smart',
    ]);
    expect(buttons.map((button) => button.getAttribute('aria-pressed'))).toEqual([
      'false',
      'true',
      'false',
    ]);
    // The listing is the picker; only the summary of the text is shown above it.
    expect(screen.getByText('Model: openai/gpt-fast (the server default)')).toBeTruthy();
    expect(screen.queryByText(/\* openai\/gpt-fast/)).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'openai/gpt-smart' }));
    expect(onCommand).toHaveBeenCalledWith('/model openai/gpt-smart');
  });

  it('a reply with a task_ref links to the sub-task in this view', () => {
    render(
      <ReplyCard
        entry={reply('spawn', 'Started sub-task abc-123', { taskRef: 'abc-123' })}
        onCommand={vi.fn()}
      />,
    );
    const link = screen.getByRole('link', { name: /Open sub-task/ });
    expect(link.getAttribute('href')).toBe('#task=abc-123');
    expect(link.getAttribute('target')).toBeNull();
  });

  it('names a sub-task and a fork made in the same millisecond by different short ids', () => {
    // UUIDv7: the leading digits are the time, the trailing ones random.
    const sub = '01a23514-9c3e-7000-8000-1111aaaa2222';
    const fork = '01a23514-9c3e-7000-8000-3333bbbb4444';
    render(
      <>
        <ReplyCard entry={reply('spawn', 'Started', { taskRef: sub })} onCommand={vi.fn()} />
        <ReplyCard entry={reply('fork', 'Forked', { taskRef: fork })} onCommand={vi.fn()} />
      </>,
    );
    const ids = [...document.querySelectorAll('.reply-link-id')].map((id) => id.textContent);
    expect(ids).toEqual(['aaaa2222', 'bbbb4444']);
  });

  it("lays /help's commands out as a table, so wrapped text keeps its columns", () => {
    const data = {
      commands: [
        {
          name: 'help',
          description: 'List the commands, or explain one',
          argument_hint: '[<command>]',
        },
        {
          name: 'spawn',
          description: 'Run a prompt as a sub-task '.repeat(8),
          argument_hint: '<prompt>',
        },
      ],
    };
    const text =
      'Commands:\n/help [<command>]  List the commands\n\nType /help <command> for one in detail.';
    render(<ReplyCard entry={reply('help', text, { data })} onCommand={vi.fn()} />);
    const table = screen.getByRole('table', { name: 'Commands' });
    const rows = within(table).getAllByRole('row');
    expect(rows.map((row) => [...row.children].map((cell) => cell.textContent))).toEqual([
      ['/help [<command>]', 'List the commands, or explain one'],
      ['/spawn <prompt>', data.commands[1]!.description],
    ]);
    expect(screen.getByText('Type /help <command> for one in detail.')).toBeTruthy();
  });

  it('lists /tasks as links to each task', () => {
    const data = {
      tasks: [
        { id: 't1', title: 'First', state: 'TASK_STATE_INPUT_REQUIRED', current: true },
        { id: 't2', title: '/spawn a poem', state: 'TASK_STATE_WORKING', current: false },
      ],
    };
    render(
      <ReplyCard
        entry={reply('tasks', 'Tasks in this conversation (2 tasks)', { data })}
        onCommand={vi.fn()}
      />,
    );
    const links = screen.getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['First', '#task=t1'],
      ['/spawn a poem', '#task=t2'],
    ]);
    expect(links[0]!.getAttribute('aria-current')).toBe('page');
    expect(screen.getByText('working')).toBeTruthy();
  });

  it('marks a reply that reports a problem (data.error)', () => {
    render(
      <ReplyCard
        entry={reply('spawn', '/spawn needs a prompt', { data: { error: 'missing_arguments' } })}
        onCommand={vi.fn()}
      />,
    );
    expect(screen.getByRole('article').className).toContain('reply--error');
    expect(screen.getByText('needs attention')).toBeTruthy();
  });

  it('shows model data from another command as text, not as a picker', () => {
    render(<ReplyCard entry={reply('other', 'text', { data: MODELS })} onCommand={vi.fn()} />);
    expect(screen.queryByRole('group')).toBeNull();
  });
});

describe('Conversation: replies are cards, never model bubbles', () => {
  it('renders each kind of entry its own way', () => {
    const entries: Entry[] = [
      { kind: 'user', key: 'u1', text: 'hello', pending: false },
      {
        kind: 'agent',
        key: 'a1',
        text: 'Hi! `code`',
        streaming: false,
        preview: false,
      },
      { kind: 'user', key: 'u2', text: '/status', command: 'status', pending: false },
      reply('status', 'State: input required'),
      { kind: 'agent', key: 'a2', text: 'strea', streaming: true, preview: true },
    ];
    const { container } = render(
      <Conversation entries={entries} thinking={false} onCommand={vi.fn()} empty={null} />,
    );
    expect(screen.getByRole('log', { name: 'Conversation' })).toBeTruthy();
    const items = [...container.querySelectorAll('.entry')];
    expect(items.map((item) => item.className)).toEqual([
      'entry entry--user',
      'entry entry--agent',
      'entry entry--user',
      'entry entry--reply',
      'entry entry--agent',
    ]);
    expect(items[2]!.querySelector('.command-line')!.textContent).toBe('/status');
    expect(items[3]!.querySelector('.bubble')).toBeNull();
    expect(items[3]!.querySelector('.reply-tag')!.textContent).toBe('/status');
    expect(items[1]!.querySelector('code')!.textContent).toBe('code');
    // The streaming answer shows a caret and is marked busy.
    expect(items[4]!.querySelector('.caret')).not.toBeNull();
    expect(items[4]!.querySelector('[aria-busy="true"]')).not.toBeNull();
  });

  it('shows the empty state when there is nothing yet', () => {
    render(
      <Conversation entries={[]} thinking={false} onCommand={vi.fn()} empty={<p>empty!</p>} />,
    );
    expect(screen.getByText('empty!')).toBeTruthy();
  });
});

describe('reply-view', () => {
  it('checks the /model data shape instead of trusting it', () => {
    expect(asModelData(MODELS)).toEqual(MODELS);
    expect(asModelData({ current: 1, models: [] })).toBeUndefined();
    expect(
      asModelData({ current: 'x', models: [{ id: 'a' }, { id: 'b', provider: 'p' }] }),
    ).toEqual({
      current: 'x',
      models: [{ id: 'b', provider: 'p' }],
    });
    expect(asModelData(null)).toBeUndefined();
  });

  it('knows a refusal by its data part: a named error, or the shared {code, message}', () => {
    expect(isErrorReply({ error: 'unknown_command', command: 'x', suggestions: [] })).toBe(true);
    expect(isErrorReply({ error: { code: 'missing-argument', message: 'Type one.' } })).toBe(true);
    expect(isErrorReply({ error: { message: 'no code' } })).toBe(false);
    expect(isErrorReply({ current: 'offline/echo', models: [] })).toBe(false);
  });

  it('summarises text up to the first blank line', () => {
    expect(summaryOf('one\ntwo\n\nthree')).toBe('one\ntwo');
  });
});
