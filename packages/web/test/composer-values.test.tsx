import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { completeArgument, type CommandCompletionParams } from 'a2a-commands/client/completion';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Composer } from '../src/components/Composer.js';
import { COMMANDS } from './fixtures.js';

/*
 * The composer's second list: the values of a command's argument, here the
 * card's fixed choices (no request is made for those). The Enter rule is the
 * one pickers follow: an open list whose highlighted value differs from what
 * is typed means Enter takes that value, and sends the line.
 */

afterEach(cleanup);

const COMPLETION: CommandCompletionParams = {
  endpoint: 'http://127.0.0.1:9/unused',
  commands: [
    {
      name: 'model',
      arguments: [
        {
          name: 'model',
          choices: [
            { value: 'openai/fake-alpha', description: 'openai' },
            { value: 'openai/fake-beta', description: 'openai' },
          ],
        },
      ],
    },
    {
      name: 'help',
      arguments: [
        {
          name: 'command',
          choices: COMMANDS.map((command) => ({ value: command.name })),
        },
      ],
    },
  ],
};

function setup() {
  const user = userEvent.setup();
  const onSend = vi.fn(async (_text: string) => true);
  render(
    <Composer
      commands={COMMANDS}
      onSend={onSend}
      argumentValues={(input) => completeArgument(input, COMPLETION)}
    />,
  );
  const box = screen.getByRole('combobox', { name: 'Message' }) as HTMLTextAreaElement;
  return { user, box, onSend };
}

const valueNames = (name: string) =>
  screen
    .getByRole('listbox', { name: `Values for ${name}` })
    .querySelectorAll('[role="option"] .slash-name');

describe('Enter with the value list open', () => {
  it('takes the highlighted value when it differs from what is typed: /model beta', async () => {
    const { user, box, onSend } = setup();
    await user.type(box, '/model beta');
    await screen.findByRole('listbox', { name: 'Values for model' });
    await user.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledWith('/model openai/fake-beta');
    expect(onSend).toHaveBeenCalledTimes(1);
  });

  it('takes the highlighted command for /help mo', async () => {
    const { user, box, onSend } = setup();
    await user.type(box, '/help mo');
    await screen.findByRole('listbox', { name: 'Values for command' });
    await user.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledWith('/help model');
  });

  it('takes the value moved to with the arrows', async () => {
    const { user, box, onSend } = setup();
    await user.type(box, '/model ');
    await screen.findByRole('listbox', { name: 'Values for model' });
    await user.keyboard('{ArrowDown}{Enter}');
    expect(onSend).toHaveBeenCalledWith('/model openai/fake-beta');
  });

  it('sends what is typed when it is the highlighted value, or when nothing is typed yet', async () => {
    const { user, box, onSend } = setup();
    await user.type(box, '/model openai/fake-alpha');
    await screen.findByRole('listbox', { name: 'Values for model' });
    await user.keyboard('{Enter}');
    expect(onSend).toHaveBeenLastCalledWith('/model openai/fake-alpha');

    // `/model ` alone shows the task's model: the first value is not a choice made.
    await user.clear(box);
    await user.type(box, '/model ');
    await screen.findByRole('listbox', { name: 'Values for model' });
    await user.keyboard('{Enter}');
    expect(onSend).toHaveBeenLastCalledWith('/model ');
  });
});

describe('the value list', () => {
  it('closes when a value is clicked', async () => {
    const { user, box } = setup();
    await user.type(box, '/model ');
    await screen.findByRole('listbox', { name: 'Values for model' });
    await user.click(screen.getByRole('option', { name: /fake-beta/ }));
    expect(box.value).toBe('/model openai/fake-beta');
    // Long enough for another request to answer, were one made.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('highlights the letters that match what is typed', async () => {
    const { user, box } = setup();
    await user.type(box, '/model BET');
    await screen.findByRole('listbox', { name: 'Values for model' });
    const [beta] = valueNames('model');
    expect([...beta!.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['bet']);
  });
});

describe('the argument hint', () => {
  it('stays under the box once the first argument is typed', async () => {
    const { user, box } = setup();
    await user.type(box, '/spawn write a poem');
    const help = document.getElementById(box.getAttribute('aria-describedby')!)!;
    expect(help.textContent).toBe('/spawn <prompt>: Run a prompt as a sub-task');
  });
});
