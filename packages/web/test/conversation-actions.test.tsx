import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import type { Entry } from '../src/a2a/transcript.js';
import { Conversation } from '../src/components/Conversation.js';

/*
 * What people expect of a chat page: copy a whole answer, edit and resend the
 * last message, regenerate the last answer, and a way back to the latest
 * output when scrolled up.
 */

afterEach(cleanup);

const prompt = (key: string, text: string): Entry => ({ kind: 'user', key, text, pending: false });
const answer = (key: string, text: string, streaming = false): Entry => ({
  kind: 'agent',
  key,
  text,
  streaming,
  preview: streaming,
});

const ENTRIES = [
  prompt('u1', 'first question'),
  answer('a1', 'First **answer**.'),
  prompt('u2', 'second question'),
  answer('a2', 'Second answer, with `code`.'),
];

function show(
  entries: Entry[],
  handlers: { onEdit?: (text: string) => void; onRegenerate?: () => void } = {},
) {
  return (
    <Conversation
      chatId="t1"
      entries={entries}
      thinking={false}
      onCommand={async () => undefined}
      empty={null}
      {...handlers}
    />
  );
}

it('copies a whole answer, as the model wrote it', async () => {
  const user = userEvent.setup();
  render(show(ENTRIES));
  const answers = document.querySelectorAll('.msg--agent');
  await user.click(within(answers[0] as HTMLElement).getByRole('button', { name: 'Copy answer' }));
  expect(await navigator.clipboard.readText()).toBe('First **answer**.');
  expect(within(answers[0] as HTMLElement).getByRole('status').textContent).toBe('Copied');
});

it('offers to edit the last message and to regenerate the last answer, and only those', async () => {
  const user = userEvent.setup();
  const onEdit = vi.fn();
  const onRegenerate = vi.fn();
  render(show(ENTRIES, { onEdit, onRegenerate }));
  expect(screen.getAllByRole('button', { name: 'Edit this message' })).toHaveLength(1);
  expect(screen.getAllByRole('button', { name: 'Regenerate' })).toHaveLength(1);

  await user.click(screen.getByRole('button', { name: 'Edit this message' }));
  expect(onEdit).toHaveBeenCalledWith('second question');
  await user.click(screen.getByRole('button', { name: 'Regenerate' }));
  expect(onRegenerate).toHaveBeenCalledTimes(1);
});

it('offers no regenerate while the answer streams', () => {
  render(show([...ENTRIES.slice(0, 3), answer('a2', 'Second', true)], { onRegenerate: vi.fn() }));
  expect(screen.queryByRole('button', { name: 'Regenerate' })).toBeNull();
  expect(screen.queryAllByRole('button', { name: 'Copy answer' })).toHaveLength(1);
});

it('shows "Jump to latest" when scrolled up, and it goes to the end', async () => {
  const user = userEvent.setup();
  const view = render(show(ENTRIES));
  const box = view.container.querySelector('.conversation') as HTMLElement;
  let top = 900;
  Object.defineProperty(box, 'scrollHeight', { configurable: true, get: () => 1000 });
  Object.defineProperty(box, 'clientHeight', { configurable: true, get: () => 100 });
  Object.defineProperty(box, 'scrollTop', {
    configurable: true,
    get: () => top,
    set: (value: number) => (top = value),
  });
  box.scrollTo = ((options: ScrollToOptions) => {
    top = options.top ?? top;
    fireEvent.scroll(box);
  }) as typeof box.scrollTo;
  fireEvent.scroll(box);
  expect(screen.queryByRole('button', { name: 'Jump to latest' })).toBeNull();

  top = 0;
  fireEvent.scroll(box);
  await user.click(screen.getByRole('button', { name: 'Jump to latest' }));
  expect(top).toBe(1000);
  expect(screen.queryByRole('button', { name: 'Jump to latest' })).toBeNull();
});
