import { cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import type { Entry } from '../src/a2a/transcript.js';
import { Conversation } from '../src/components/Conversation.js';

/*
 * "Follow new output while at the bottom" is per chat: scrolling up in one
 * chat must not leave the next chat at its top, nor stop what you send from
 * being followed. jsdom does no layout, so the scroll box's sizes are set here.
 */

afterEach(cleanup);

const answer = (key: string, text: string): Entry => ({
  kind: 'agent',
  key,
  text,
  streaming: false,
  preview: false,
});
const prompt = (key: string, text: string): Entry => ({
  kind: 'user',
  key,
  text,
  pending: false,
});

/** A scroll box 100 px tall with 1000 px of content, whose scrollTop is kept. */
function sized(element: HTMLElement): { top: () => number; scrollTo: (top: number) => void } {
  let top = 0;
  Object.defineProperty(element, 'scrollHeight', { configurable: true, get: () => 1000 });
  Object.defineProperty(element, 'clientHeight', { configurable: true, get: () => 100 });
  Object.defineProperty(element, 'scrollTop', {
    configurable: true,
    get: () => top,
    set: (value: number) => (top = value),
  });
  return {
    top: () => top,
    scrollTo: (value) => {
      top = value;
      fireEvent.scroll(element);
    },
  };
}

function show(chatId: string | undefined, entries: Entry[]) {
  return (
    <Conversation
      chatId={chatId}
      entries={entries}
      thinking={false}
      onCommand={async () => undefined}
      empty={null}
    />
  );
}

it('a chat opened after scrolling up in another one starts at its end', () => {
  const view = render(show('a', [prompt('a1', 'q'), answer('a2', 'long answer')]));
  const box = sized(view.container.querySelector('.conversation') as HTMLElement);
  box.scrollTo(0);
  view.rerender(show('b', [prompt('b1', 'other q'), answer('b2', 'other answer')]));
  expect(box.top()).toBe(1000);
});

it('in a chat scrolled up, a new answer does not move it; a message you send is followed', () => {
  const first = [prompt('a1', 'q'), answer('a2', 'long answer')];
  const view = render(show('a', first));
  const box = sized(view.container.querySelector('.conversation') as HTMLElement);
  box.scrollTo(0);
  view.rerender(show('a', [...first, answer('a3', 'a note')]));
  expect(box.top()).toBe(0);
  view.rerender(show('a', [...first, answer('a3', 'a note'), prompt('a4', 'next')]));
  expect(box.top()).toBe(1000);
});
