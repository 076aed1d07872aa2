import { cleanup, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { MessageBubble } from '../src/components/MessageBubble.js';

afterEach(cleanup);

const answer = (text: string, streaming = false) => (
  <MessageBubble entry={{ kind: 'agent', key: 'a1', text, streaming, preview: false }} />
);

describe("the model's answer as Markdown", () => {
  it('renders headings, lists, quotes, tables, emphasis and inline code', () => {
    const text = [
      '## Plan',
      '',
      '1. first',
      '2. second',
      '',
      '- a point with `code`',
      '',
      '> quoted **words**',
      '',
      '| Name | Size |',
      '| ---- | ---- |',
      '| a    | 1    |',
    ].join('\n');
    const { container } = render(answer(text));
    expect(screen.getByRole('heading', { level: 2, name: 'Plan' })).toBeTruthy();
    const lists = screen.getAllByRole('list');
    expect(lists.map((list) => list.tagName)).toEqual(['OL', 'UL']);
    expect(
      within(lists[0]!)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['first', 'second']);
    expect(container.querySelector('li code')!.textContent).toBe('code');
    expect(container.querySelector('blockquote strong')!.textContent).toBe('words');
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Name', 'Size']);
    expect(
      within(table)
        .getAllByRole('cell')
        .map((td) => td.textContent),
    ).toEqual(['a', '1']);
  });

  it('opens links in a new tab without an opener, and drops javascript: targets', () => {
    render(answer('See [the docs](https://example.com/docs) or [this](javascript:alert(1)).'));
    const docs = screen.getByRole('link', { name: 'the docs' });
    expect(docs.getAttribute('href')).toBe('https://example.com/docs');
    expect(docs.getAttribute('target')).toBe('_blank');
    expect(docs.getAttribute('rel')).toBe('noopener noreferrer');
    // The unsafe target is removed: no link to follow.
    expect(screen.queryByRole('link', { name: 'this' })).toBeNull();
    expect(screen.getByText('this')).toBeTruthy();
    expect(document.querySelector('[href^="javascript"]')).toBeNull();
  });

  it('shows raw HTML as text, never as markup', () => {
    const { container } = render(answer('<img src=x onerror="alert(1)"> <b>bold</b>'));
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
  });

  it('keeps an unclosed fence (a stream still coming in) as code', () => {
    const { container } = render(answer('Look:\n```ts\nconst a = 1;\nconst b', true));
    expect(container.querySelector('pre code')!.textContent).toBe('const a = 1;\nconst b\n');
  });

  it('gives a code block a Copy button that copies the code and says "Copied"', async () => {
    const user = userEvent.setup();
    render(answer('Run:\n\n```sh\nnpm test\nnpm run lint\n```\n'));
    const copy = screen.getByRole('button', { name: 'Copy code' });
    expect(screen.getByText('sh')).toBeTruthy();
    // Keyboard reachable: Tab lands on it, Enter presses it.
    await user.tab();
    expect(document.activeElement).toBe(copy);
    await user.keyboard('{Enter}');
    expect(await navigator.clipboard.readText()).toBe('npm test\nnpm run lint');
    const block = copy.closest('.code-block') as HTMLElement;
    expect(within(block).getByRole('status').textContent).toBe('Copied');
    expect(screen.getByRole('button', { name: 'Copied code' })).toBe(copy);
  });
});
