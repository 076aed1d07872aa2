import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Composer } from '../src/components/Composer.js';
import { COMMANDS } from './fixtures.js';

afterEach(cleanup);

function setup(onSend = vi.fn(async (_text: string) => true)) {
  const user = userEvent.setup();
  render(<Composer commands={COMMANDS} onSend={onSend} />);
  const box = screen.getByRole('combobox', { name: 'Message' }) as HTMLTextAreaElement;
  return { user, box, onSend };
}

const optionNames = () =>
  screen.queryAllByRole('option').map((option) => option.querySelector('.slash-name')!.textContent);

const activeOption = (box: HTMLElement) => {
  const id = box.getAttribute('aria-activedescendant');
  return id ? document.getElementById(id) : null;
};

describe('the slash menu (ARIA combobox + listbox)', () => {
  it('is closed until "/" is typed at the start, then lists every command', async () => {
    const { user, box } = setup();
    expect(box.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('listbox')).toBeNull();

    await user.type(box, '/');
    const listbox = screen.getByRole('listbox', { name: 'Commands' });
    expect(box.getAttribute('aria-expanded')).toBe('true');
    expect(box.getAttribute('aria-controls')).toBe(listbox.id);
    expect(optionNames()).toEqual(['/help', '/model', '/status', '/spawn', '/tasks']);
    // The first entry is active, and focus stays in the composer.
    expect(activeOption(box)?.getAttribute('aria-selected')).toBe('true');
    expect(activeOption(box)?.textContent).toContain('/help');
    expect(document.activeElement).toBe(box);
  });

  it('shows name, argument hint and description in each entry', async () => {
    const { user, box } = setup();
    await user.type(box, '/sp');
    const [spawn] = screen.getAllByRole('option');
    expect(spawn!.querySelector('.slash-name')!.textContent).toBe('/spawn');
    expect(spawn!.querySelector('.slash-hint')!.textContent).toBe('<prompt>');
    expect(spawn!.querySelector('.slash-desc')!.textContent).toBe('Run a prompt as a sub-task');
    // The matched letters are marked.
    expect([...spawn!.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['sp']);
  });

  it('does not open for text that only contains a slash, or starts with a space', async () => {
    const { user, box } = setup();
    await user.type(box, 'a/b');
    expect(screen.queryByRole('listbox')).toBeNull();
    await user.clear(box);
    await user.type(box, ' /help');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('filters as you type and closes when nothing matches', async () => {
    const { user, box } = setup();
    await user.type(box, '/s');
    expect(optionNames()).toEqual(['/spawn', '/status']);
    await user.type(box, 't');
    expect(optionNames()).toEqual(['/status']);
    await user.type(box, 'zz');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box.getAttribute('aria-expanded')).toBe('false');
  });

  it('moves with the arrow keys, wrapping, and marks the active option', async () => {
    const { user, box } = setup();
    await user.type(box, '/');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(activeOption(box)?.textContent).toContain('/status');
    expect(
      screen.getAllByRole('option').filter((o) => o.getAttribute('aria-selected') === 'true'),
    ).toHaveLength(1);
    await user.keyboard('{ArrowUp}{ArrowUp}{ArrowUp}');
    expect(activeOption(box)?.textContent).toContain('/tasks');
  });

  it('Enter takes the active entry: "/<name> " and the hint as ghost text', async () => {
    const { user, box, onSend } = setup();
    await user.type(box, '/sp');
    await user.keyboard('{Enter}');
    expect(box.value).toBe('/spawn ');
    expect(onSend).not.toHaveBeenCalled();
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(screen.getByTestId('argument-hint').textContent).toContain('<prompt>');
    expect(screen.getByText(/argument required/)).toBeTruthy();
  });

  it('Tab takes it too, and Escape closes the menu until the text changes', async () => {
    const { user, box } = setup();
    await user.type(box, '/mo');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    await user.type(box, 'd');
    expect(optionNames()).toEqual(['/model']);
    await user.keyboard('{Tab}');
    expect(box.value).toBe('/model ');
    expect(document.activeElement).toBe(box);
  });

  it('reopens on "/" after Escape on a bare "/", once the text was edited', async () => {
    const { user, box } = setup();
    await user.type(box, '/');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    await user.keyboard('{Backspace}');
    await user.type(box, '/');
    expect(screen.getByRole('listbox', { name: 'Commands' })).toBeTruthy();
  });

  it('takes the mouse: hover moves the active entry, a click chooses it', async () => {
    const { user, box } = setup();
    await user.type(box, '/');
    const tasks = screen.getAllByRole('option')[4]!;
    await user.hover(tasks);
    expect(tasks.getAttribute('aria-selected')).toBe('true');
    await user.click(tasks);
    expect(box.value).toBe('/tasks ');
    expect(document.activeElement).toBe(box);
  });
});

describe('sending', () => {
  it('refuses Enter while a required argument is missing, and says why', async () => {
    const { user, box, onSend } = setup();
    await user.type(box, '/sp{Enter}');
    await user.keyboard('{Enter}');
    expect(onSend).not.toHaveBeenCalled();
    expect(box.value).toBe('/spawn ');
    expect(screen.getByText('/spawn needs an argument: <prompt>.')).toBeTruthy();
    expect(box.getAttribute('aria-invalid')).toBe('true');

    await user.type(box, 'write a haiku{Enter}');
    expect(onSend).toHaveBeenCalledWith('/spawn write a haiku');
    expect(box.value).toBe('');
  });

  it('sends a command with an optional argument left out', async () => {
    const { user, box, onSend } = setup();
    await user.type(box, '/mo{Enter}{Enter}');
    expect(onSend).toHaveBeenCalledWith('/model ');
  });

  it('Shift+Enter is a new line; Enter sends the prompt', async () => {
    const { user, box, onSend } = setup();
    await user.type(box, 'line one{Shift>}{Enter}{/Shift}line two');
    expect(box.value).toBe('line one\nline two');
    await user.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledWith('line one\nline two');
  });

  it('keeps the text when the agent did not accept it', async () => {
    const { user, box, onSend } = setup(vi.fn(async () => false));
    await user.type(box, 'hello{Enter}');
    expect(onSend).toHaveBeenCalledWith('hello');
    expect(box.value).toBe('hello');
  });

  it('the send button sends too, and is off for empty text', async () => {
    const { user, box, onSend } = setup();
    const button = screen.getByRole('button', { name: 'Send' });
    expect(button).toHaveProperty('disabled', true);
    await user.type(box, 'hi');
    await user.click(button);
    expect(onSend).toHaveBeenCalledWith('hi');
  });
});

describe('stopping an answer', () => {
  function answering(onStop = vi.fn(async (): Promise<string | undefined> => undefined)) {
    const user = userEvent.setup();
    render(<Composer commands={COMMANDS} onSend={async () => true} answering onStop={onStop} />);
    const box = screen.getByRole('combobox', { name: 'Message' }) as HTMLTextAreaElement;
    return { user, box, onStop };
  }

  it('a Stop button replaces Send while an answer streams; a click stops', async () => {
    const { user, onStop } = answering();
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    expect(onStop).toHaveBeenCalledTimes(1);
  });

  it('Esc stops too, but first closes an open menu', async () => {
    const { user, box, onStop } = answering();
    await user.type(box, '/');
    await user.keyboard('{Escape}');
    expect(onStop).not.toHaveBeenCalled();
    await user.keyboard('{Escape}');
    expect(onStop).toHaveBeenCalledTimes(1);
  });

  it('says what stopping did when the agent had no /stop', async () => {
    const { user } = answering(
      vi.fn(async (): Promise<string | undefined> => 'the task was canceled, which ends it'),
    );
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    expect(await screen.findByText('the task was canceled, which ends it')).toBeTruthy();
  });

  it('no Stop button when nothing is streaming', () => {
    render(
      <Composer commands={COMMANDS} onSend={async () => true} onStop={async () => undefined} />,
    );
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Send' })).toBeTruthy();
  });
});

describe('one Enter, and unknown commands', () => {
  it('one Enter runs a fully typed command that takes no argument', async () => {
    const { user, box, onSend } = setup();
    await user.type(box, '/status');
    expect(screen.getByRole('listbox')).toBeTruthy();
    await user.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledWith('/status');
  });

  it('a name typed in full is sent as typed, though its command takes an argument', async () => {
    const { user, box, onSend } = setup();
    await user.type(box, '/model');
    expect(screen.getByRole('listbox')).toBeTruthy();
    await user.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledWith('/model');
  });

  it('Enter on a highlighted command that takes no argument takes it and sends: /sta runs /status', async () => {
    const { user, box, onSend } = setup();
    await user.type(box, '/sta');
    await user.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledWith('/status');
    expect(onSend).toHaveBeenCalledTimes(1);
  });

  it('an unknown /name is warned about before sending, with the nearest names; Enter sends it', async () => {
    const { user, box, onSend } = setup();
    await user.type(box, '/stauts');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(
      screen.getByText(
        '/stauts is not a command of this agent — sent as a message. Did you mean /status?',
      ),
    ).toBeTruthy();
    await user.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledWith('/stauts');
  });

  it('/nope, with nothing near it, is warned about without suggestions', async () => {
    const { user, box } = setup();
    await user.type(box, '/nope');
    expect(
      screen.getByText('/nope is not a command of this agent — sent as a message.'),
    ).toBeTruthy();
  });
});
