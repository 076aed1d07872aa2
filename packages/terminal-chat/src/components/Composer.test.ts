import type { CommandSpec } from 'a2a-commands/client';
import { createElement } from 'react';
import { completeArgument } from 'a2a-commands/client/completion';
import type { CommandCompletionParams } from 'a2a-commands/client/completion';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  frame,
  KEYS,
  press,
  renderInk,
  renderThroughKeyFilter,
  waitForFrame,
  type Rendered,
} from '../test-ink.js';
import { Composer } from './Composer.js';

const COMMANDS: CommandSpec[] = [
  { name: 'help', description: 'List the commands', argument_hint: '[<command>]' },
  { name: 'model', description: "Show or choose this task's model", argument_hint: '[<model>]' },
  { name: 'status', description: 'Show this task', argument_hint: '' },
  { name: 'spawn', description: 'Run a prompt as a sub-task', argument_hint: '<prompt>' },
  { name: 'mode', description: 'Pick a mode', argument_hint: '<mode> [<why>]' },
];

let app: Rendered | undefined;
afterEach(() => app?.unmount());

/** Choices on the card, as a harness with two models lists them: matched here, no request. */
const MODEL_CHOICES: CommandCompletionParams = {
  endpoint: 'http://agent.test/complete',
  max_values: 20,
  commands: [
    {
      name: 'model',
      arguments: [
        {
          name: 'model',
          choices: [
            { value: 'offline/echo', description: 'offline' },
            { value: 'openai/fake-beta', description: 'openai' },
          ],
        },
      ],
    },
    { name: 'help', arguments: [{ name: 'command', choices: [{ value: 'model' }] }] },
  ],
};

async function composer(
  commands = COMMANDS,
  onSubmit = vi.fn((_text: string) => true),
  completion?: CommandCompletionParams,
) {
  app = await renderInk(
    createElement(Composer, {
      commands,
      onSubmit,
      argumentValues: completion
        ? (input: string, signal: AbortSignal) => completeArgument(input, completion, { signal })
        : undefined,
      isActive: true,
      width: 80,
      maxRows: 6,
      placeholder: 'Type a message',
    }),
  );
  return { app, onSubmit };
}

describe('completion list', () => {
  it('opens on / with every command, in card order, names and descriptions', async () => {
    const { app } = await composer();
    await press(app, '/');
    const lines = frame(app).split('\n');
    expect(lines[1]).toMatch(/❯ \/help\s+List the commands/);
    expect(lines.slice(1, 6).map((l) => l.trim().split(/\s+/)[l.includes('❯') ? 1 : 0])).toEqual([
      '/help',
      '/model',
      '/status',
      '/spawn',
      '/mode',
    ]);
  });

  it('ranks by complete(): /mo offers /mode and /model, prefix matches first', async () => {
    const { app } = await composer();
    await press(app, '/mo');
    const text = frame(app);
    expect(text).toMatch(/❯ \/mode\s+Pick a mode/);
    expect(text).toMatch(/\/model\s+Show or choose/);
    expect(text).not.toContain('/help');
  });

  it('Up and Down move the highlight, wrapping around', async () => {
    const { app } = await composer();
    await press(app, '/mo', KEYS.down);
    expect(frame(app)).toMatch(/❯ \/model/);
    await press(app, KEYS.down);
    expect(frame(app)).toMatch(/❯ \/mode\b/);
    await press(app, KEYS.up);
    expect(frame(app)).toMatch(/❯ \/model/);
  });

  it('Tab takes the highlighted entry and the hint shows as ghost text', async () => {
    const { app, onSubmit } = await composer();
    await press(app, '/mo', KEYS.down, KEYS.tab);
    expect(frame(app).split('\n')[0]).toBe('› /model  [<model>]');
    expect(frame(app)).not.toContain('❯');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('Enter takes the entry; a command that takes an argument waits for it', async () => {
    const { app, onSubmit } = await composer();
    await press(app, '/mo', KEYS.down, KEYS.enter);
    expect(frame(app).split('\n')[0]).toBe('› /model  [<model>]');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('Enter takes a command that takes no argument and sends it: /sta runs /status', async () => {
    const { app, onSubmit } = await composer();
    await press(app, '/sta', KEYS.enter);
    expect(onSubmit).toHaveBeenCalledWith('/status');
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('Enter on a name typed in full sends it at once', async () => {
    const { onSubmit, app } = await composer();
    await press(app, '/status', KEYS.enter);
    expect(onSubmit).toHaveBeenCalledWith('/status');
  });

  it('Esc closes the list; typing opens it again', async () => {
    const { app } = await composer();
    await press(app, '/m', KEYS.escape);
    expect(frame(app)).not.toContain('/model');
    await press(app, 'o');
    expect(frame(app)).toContain('/model');
  });

  it('a long list shows a window that follows the highlight', async () => {
    const many = Array.from({ length: 12 }, (_, i) => ({
      name: `cmd${String(i).padStart(2, '0')}`,
      description: `number ${i}`,
      argument_hint: '',
    }));
    const { app } = await composer(many);
    await press(app, '/');
    expect(frame(app)).toContain('1–8 of 12');
    await press(app, KEYS.up);
    expect(frame(app)).toMatch(/❯ \/cmd11/);
    expect(frame(app)).toContain('5–12 of 12');
  });

  it('an agent without commands gets no list and no hint: / is plain text', async () => {
    const { app, onSubmit } = await composer([]);
    await press(app, '/model', KEYS.enter);
    expect(onSubmit).toHaveBeenCalledWith('/model');
  });
});

describe('ghost hint', () => {
  it('shows after the name until arguments are typed', async () => {
    const { app } = await composer();
    await press(app, '/spawn');
    expect(frame(app).split('\n')[0]).toBe('› /spawn  <prompt>');
    await press(app, ' ');
    expect(frame(app).split('\n')[0]).toBe('› /spawn  <prompt>');
    await press(app, 'x');
    expect(frame(app).split('\n')[0]).toBe('› /spawn x');
  });

  it('is absent for a command without a hint and for unknown names', async () => {
    const { app } = await composer();
    await press(app, '/status ');
    expect(frame(app).split('\n')[0]).toBe('› /status');
    await press(app, KEYS.backspace.repeat(1));
    for (let i = 0; i < 7; i++) await press(app, KEYS.backspace);
    await press(app, '/nope ');
    expect(frame(app).split('\n')[0]).toBe('› /nope');
  });
});

describe('required-argument rule', () => {
  it('Enter on a required <...> argument with nothing typed does not send, and says what is missing', async () => {
    const { app, onSubmit } = await composer();
    await press(app, '/spawn', KEYS.enter);
    expect(onSubmit).not.toHaveBeenCalled();
    const text = frame(app);
    expect(text.split('\n')[0]).toBe('› /spawn  <prompt>');
    expect(text).toContain('/spawn needs <prompt>: type it after the name');
    // The cursor stays after the name: typing goes into the arguments.
    await press(app, 'a haiku', KEYS.enter);
    expect(onSubmit).toHaveBeenCalledWith('/spawn a haiku');
  });

  it('names only the required parts of a mixed hint', async () => {
    const { app } = await composer();
    await press(app, '/mode ', KEYS.enter);
    expect(frame(app)).toContain('/mode needs <mode>:');
  });

  it('optional [...] hints and hintless commands send', async () => {
    const { app, onSubmit } = await composer();
    await press(app, '/model ', KEYS.enter);
    expect(onSubmit).toHaveBeenLastCalledWith('/model ');
    await press(app, '/help', KEYS.escape, KEYS.enter);
    expect(onSubmit).toHaveBeenLastCalledWith('/help');
  });
});

describe('Enter with a list of values open', () => {
  it('takes the highlighted value when it differs from what is typed, and sends: /model beta', async () => {
    const { app, onSubmit } = await composer(COMMANDS, undefined, MODEL_CHOICES);
    await press(app, '/model beta');
    await waitForFrame(app, (t) => t.includes('openai/fake-beta'));
    await press(app, KEYS.enter);
    expect(onSubmit).toHaveBeenCalledWith('/model openai/fake-beta');
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('the same for /help and a command name as the value: /help mo', async () => {
    const { app, onSubmit } = await composer(COMMANDS, undefined, MODEL_CHOICES);
    await press(app, '/help mo');
    await waitForFrame(app, (t) => /❯ model/.test(t));
    await press(app, KEYS.enter);
    expect(onSubmit).toHaveBeenCalledWith('/help model');
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('sends at once when what is typed is the highlighted value', async () => {
    const { app, onSubmit } = await composer(COMMANDS, undefined, MODEL_CHOICES);
    await press(app, '/model offline/echo');
    await waitForFrame(app, (t) => t.includes('offline'));
    await press(app, KEYS.enter);
    expect(onSubmit).toHaveBeenCalledWith('/model offline/echo');
  });

  it('with nothing typed, the first value is not a choice: Enter sends /model; after Down it takes the value', async () => {
    const { app, onSubmit } = await composer(COMMANDS, undefined, MODEL_CHOICES);
    await press(app, '/model ');
    await waitForFrame(app, (t) => t.includes('❯ offline/echo'));
    await press(app, KEYS.enter);
    expect(onSubmit).toHaveBeenLastCalledWith('/model ');
    await press(app, '/model ');
    await waitForFrame(app, (t) => t.includes('❯ offline/echo'));
    await press(app, KEYS.down, KEYS.enter);
    expect(onSubmit).toHaveBeenLastCalledWith('/model openai/fake-beta');
  });
});

describe('editing and history', () => {
  it('keeps a refused draft, clears a sent one', async () => {
    const onSubmit = vi.fn((text: string) => text !== 'busy');
    const { app } = await composer(COMMANDS, onSubmit);
    await press(app, 'busy', KEYS.enter);
    expect(frame(app).split('\n')[0]).toBe('› busy');
    for (let i = 0; i < 4; i++) await press(app, KEYS.backspace);
    await press(app, 'hello', KEYS.enter);
    // The cursor, then the placeholder.
    expect(frame(app).split('\n')[0]).toBe('›  Type a message');
  });

  it('Up and Down browse sent inputs when the list is closed, keeping the draft', async () => {
    const { app } = await composer();
    await press(app, 'first', KEYS.enter, 'second', KEYS.enter, 'draft');
    await press(app, KEYS.up);
    expect(frame(app).split('\n')[0]).toBe('› second');
    await press(app, KEYS.up);
    expect(frame(app).split('\n')[0]).toBe('› first');
    await press(app, KEYS.down, KEYS.down);
    expect(frame(app).split('\n')[0]).toBe('› draft');
  });

  it('a paste arrives as one chunk: kept whole, line breaks and all, not sent', async () => {
    const { app, onSubmit } = await composer();
    await press(app, 'line one\r\nline two\ttabbed\u0007');
    expect(onSubmit).not.toHaveBeenCalled();
    expect(frame(app)).toContain('› line one\n  line two  tabbed');
    await press(app, KEYS.enter);
    expect(onSubmit).toHaveBeenCalledWith('line one\nline two  tabbed');
  });

  it('Backspace removes a whole grapheme: a family emoji, a flag, an accented letter', async () => {
    const { app, onSubmit } = await composer();
    await press(app, 'a👨‍👩‍👧‍👦🇫🇷e\u0301', KEYS.backspace, KEYS.backspace, KEYS.backspace);
    await press(app, KEYS.enter);
    expect(onSubmit).toHaveBeenCalledWith('a');
  });

  it('Left and Right step over a whole grapheme', async () => {
    const { app, onSubmit } = await composer();
    await press(app, '👨‍👩‍👧‍👦b', KEYS.left, KEYS.left, 'a', KEYS.right, KEYS.right, 'c', KEYS.enter);
    expect(onSubmit).toHaveBeenCalledWith('a👨‍👩‍👧‍👦bc');
  });

  it('moves by words: Ctrl+Left/Right, Alt+Left/Right, Alt+B/F; Alt+Backspace deletes one', async () => {
    const { app, onSubmit } = await composer();
    const ctrlLeft = '\u001b[1;5D';
    const ctrlRight = '\u001b[1;5C';
    const altLeft = '\u001b[1;3D';
    await press(app, 'one two three', ctrlLeft, ctrlLeft, 'X');
    await press(app, ctrlRight, 'Y', altLeft, 'Z', '\u001bf', '\u001bb', 'W');
    await press(app, KEYS.enter);
    expect(onSubmit).toHaveBeenLastCalledWith('one WZXtwoY three');
    await press(app, 'alpha beta', '\u001b\u007f', KEYS.enter);
    expect(onSubmit).toHaveBeenLastCalledWith('alpha ');
  });

  it('moves the cursor and edits in the middle', async () => {
    const { app, onSubmit } = await composer();
    await press(app, 'helo', KEYS.left, 'l', KEYS.enter);
    expect(onSubmit).toHaveBeenCalledWith('hello');
  });
});

describe('a line and Enter in one read', () => {
  it('is typed, then sent', async () => {
    const { app, onSubmit } = await composer();
    await press(app, 'hello\r');
    expect(onSubmit).toHaveBeenCalledWith('hello');
  });

  it('still follows the completion list and the required-argument rule', async () => {
    const { app, onSubmit } = await composer();
    await press(app, '/spawn\r');
    expect(onSubmit).not.toHaveBeenCalled();
    expect(frame(app)).toContain('/spawn needs <prompt>');
  });

  it('with a Tab before the Enter: the Tab takes the highlighted command, as it does alone', async () => {
    const apart = await composer();
    await press(apart.app, '/he', KEYS.tab, KEYS.enter);
    expect(apart.onSubmit).toHaveBeenCalledWith(expect.stringMatching(/^\/help\s*$/));
    apart.app.unmount();

    const { app, onSubmit } = await composer();
    await press(app, '/he');
    await press(app, '\t\r');
    expect(onSubmit.mock.calls).toEqual(apart.onSubmit.mock.calls);
  });

  it('typed whole, Tab and all: the same', async () => {
    const { app, onSubmit } = await composer();
    await press(app, '/he\t\r');
    expect(onSubmit).toHaveBeenCalledWith(expect.stringMatching(/^\/help\s*$/));
  });
});

describe('a Tab among typed keys in one read', () => {
  it('takes the highlighted command, and the keys after it go on typing', async () => {
    const { app, onSubmit } = await composer();
    await press(app, '/sp\tmake tea');
    expect(frame(app)).toContain('/spawn make tea');
    await press(app, KEYS.enter);
    expect(onSubmit).toHaveBeenCalledWith('/spawn make tea');
  });

  it('is text where no list shows, as in a paste: columns stay apart', async () => {
    const { app, onSubmit } = await composer();
    await press(app, 'name\tvalue');
    await press(app, KEYS.enter);
    // Two spaces, as for any tab typed or pasted: ink measures a tab as one column.
    expect(onSubmit).toHaveBeenCalledWith('name  value');
  });
});

describe('a paste the terminal marks (bracketed paste)', () => {
  const pasted = (text: string) => `\u001b[200~${text}\u001b[201~`;

  /** The composer reading keys as the chat does, through the key filter. */
  async function composerReadingTheTerminal() {
    const onSubmit = vi.fn((_text: string) => true);
    app = await renderThroughKeyFilter(
      createElement(Composer, {
        commands: COMMANDS,
        onSubmit,
        isActive: true,
        width: 80,
        maxRows: 6,
        placeholder: 'Type a message',
      }),
    );
    return { app, onSubmit };
  }

  it('is text to read over: a pasted line with its Enter is not sent', async () => {
    const { app, onSubmit } = await composerReadingTheTerminal();
    await press(app, pasted('make tea\r'));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(frame(app)).toContain('› make tea');
    await press(app, KEYS.backspace, KEYS.enter);
    expect(onSubmit).toHaveBeenCalledWith('make tea');
  });

  it('keeps its Tab as text where the completion list shows', async () => {
    const { app, onSubmit } = await composerReadingTheTerminal();
    await press(app, '/he', pasted('\tx'), KEYS.enter);
    expect(onSubmit).toHaveBeenCalledWith('/he  x');
  });

  it('after one, keys typed ahead in one read are keys: each Enter sends', async () => {
    const { app, onSubmit } = await composerReadingTheTerminal();
    await press(app, pasted('first'), KEYS.enter);
    expect(onSubmit).toHaveBeenLastCalledWith('first');
    await press(app, 'hi\rthere');
    expect(onSubmit).toHaveBeenLastCalledWith('hi');
    expect(frame(app)).toContain('› there');
  });
});

describe('a long input', () => {
  it('shows only the rows around the cursor, however long the paste', async () => {
    const { app, onSubmit } = await composer();
    const lines = Array.from({ length: 50 }, (_, i) => `pasted line ${i}`);
    await press(app, lines.join('\r'));
    const text = frame(app);
    expect(text.split('\n').length).toBeLessThanOrEqual(8);
    expect(text).toContain('pasted line 49');
    expect(text).not.toContain('pasted line 10\n');
    expect(text).toContain('…');
    await press(app, KEYS.enter);
    expect(onSubmit).toHaveBeenCalledWith(lines.join('\n'));
  });
});
