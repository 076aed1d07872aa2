import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Composer } from '../src/components/Composer.js';
import { COMMANDS } from './fixtures.js';

afterEach(cleanup);

function setup() {
  const user = userEvent.setup();
  render(<Composer commands={COMMANDS} onSend={vi.fn(async () => true)} />);
  const box = screen.getByRole('combobox', { name: 'Message' }) as HTMLTextAreaElement;
  return { user, box };
}

describe('the slash menu when nothing matches', () => {
  it('says that no command matches instead of vanishing, and Esc closes it', async () => {
    const { user, box } = setup();
    await user.type(box, '/zzz');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box.getAttribute('aria-expanded')).toBe('false');
    const empty = document.querySelector('.slash-empty');
    expect(empty?.textContent).toBe('No command matches /zzz.');

    await user.keyboard('{Escape}');
    expect(document.querySelector('.slash-empty')).toBeNull();
    // Editing brings it back, as it does the menu.
    await user.type(box, 'z');
    expect(document.querySelector('.slash-empty')?.textContent).toBe('No command matches /zzzz.');
  });

  it('goes once arguments are being typed, or the text matches again', async () => {
    const { user, box } = setup();
    await user.type(box, '/zzz ');
    expect(document.querySelector('.slash-empty')).toBeNull();
    await user.clear(box);
    await user.type(box, '/zzz{Backspace}{Backspace}{Backspace}he');
    expect(document.querySelector('.slash-empty')).toBeNull();
    expect(screen.getByRole('listbox', { name: 'Commands' })).toBeTruthy();
  });
});
