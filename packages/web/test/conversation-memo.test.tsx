import { cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { Entry } from '../src/a2a/transcript.js';
import type * as MarkdownModule from '../src/components/Markdown.js';
import type * as ReplyCardModule from '../src/components/ReplyCard.js';

/*
 * A chunk changes one entry: only that entry renders again, however long the
 * conversation. Markdown and the reply cards are the costly parts, so their
 * renders are counted (the real components still render).
 */

const renders = vi.hoisted(() => ({ markdown: [] as string[], replies: [] as string[] }));

vi.mock('../src/components/Markdown.js', async (importOriginal) => {
  const actual = await importOriginal<typeof MarkdownModule>();
  return {
    Markdown: (props: { text: string }) => {
      renders.markdown.push(props.text);
      return actual.Markdown(props);
    },
  };
});

vi.mock('../src/components/ReplyCard.js', async (importOriginal) => {
  const actual = await importOriginal<typeof ReplyCardModule>();
  return {
    ReplyCard: (props: Parameters<typeof actual.ReplyCard>[0]) => {
      renders.replies.push(props.entry.key);
      return actual.ReplyCard(props);
    },
  };
});

// The project shares a worker's modules between files (isolate: false): an
// earlier file may have loaded Conversation with the real components, so it
// is loaded afresh here to pick up the counting ones.
vi.resetModules();
const { Conversation } = await import('../src/components/Conversation.js');

afterEach(cleanup);
beforeEach(() => {
  renders.markdown.length = 0;
  renders.replies.length = 0;
});

/** 200 entries: prompts, answers, and now and then a command with its reply card. */
function longConversation(): Entry[] {
  const entries: Entry[] = [];
  for (let i = 0; entries.length < 200; i++) {
    entries.push({ kind: 'user', key: `u${i}`, text: `question ${i}`, pending: false });
    if (i % 10 === 0) {
      entries.push({ kind: 'reply', key: `r${i}`, command: 'status', text: 'ok', data: undefined });
    } else {
      entries.push({
        kind: 'agent',
        key: `a${i}`,
        text: `answer ${i}`,
        streaming: false,
        preview: false,
      });
    }
  }
  return entries;
}

const streaming = (text: string): Entry => ({
  kind: 'agent',
  key: 'artifact:live',
  text,
  streaming: true,
  preview: true,
});

it('renders only the growing answer on each chunk of a 200-entry conversation', () => {
  const onCommand = vi.fn(async () => true);
  const history = longConversation();
  let entries = [...history, streaming('Once')];
  const view = render(
    <Conversation
      chatId="t1"
      entries={entries}
      thinking={false}
      onCommand={onCommand}
      empty={null}
    />,
  );
  expect(renders.markdown.length).toBeGreaterThan(80);

  for (const word of [' upon', ' a', ' time']) {
    renders.markdown.length = 0;
    renders.replies.length = 0;
    const last = entries.at(-1) as Extract<Entry, { kind: 'agent' }>;
    entries = [...entries.slice(0, -1), streaming(last.text + word)];
    view.rerender(
      <Conversation
        chatId="t1"
        entries={entries}
        thinking={false}
        onCommand={onCommand}
        empty={null}
      />,
    );
    expect(renders.markdown).toEqual([last.text + word]);
    expect(renders.replies).toEqual([]);
  }
});

it('renders a new entry alone when one is added', () => {
  const onCommand = vi.fn(async () => true);
  const history = longConversation();
  const view = render(
    <Conversation
      chatId="t1"
      entries={history}
      thinking={false}
      onCommand={onCommand}
      empty={null}
    />,
  );
  renders.markdown.length = 0;
  view.rerender(
    <Conversation
      chatId="t1"
      entries={[...history, streaming('First words')]}
      thinking={false}
      onCommand={onCommand}
      empty={null}
    />,
  );
  expect(renders.markdown).toEqual(['First words']);
});
