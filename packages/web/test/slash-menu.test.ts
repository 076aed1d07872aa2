import { describe, expect, it } from 'vitest';
import {
  commandNameOf,
  ghostHint,
  highlightRuns,
  insertionFor,
  menuEntries,
  moveActive,
  sendBlocker,
} from '../src/menu/slash-menu.js';
import { COMMANDS } from './fixtures.js';

const names = (input: string) => menuEntries(input, COMMANDS).map((entry) => entry.command.name);

describe('menuEntries: when the menu opens and what it offers', () => {
  it('opens on "/" at the start with every command, in card order', () => {
    expect(names('/')).toEqual(['help', 'model', 'status', 'spawn', 'tasks']);
  });

  it('stays closed without a leading "/": plain text, or " /help" (a literal message, SEMANTICS §2)', () => {
    expect(names('')).toEqual([]);
    expect(names('hello')).toEqual([]);
    expect(names(' /help')).toEqual([]);
  });

  it('filters with complete(): prefix matches first, then fuzzy ones', () => {
    // One letter matches at word starts only: /s is not offered /tasks for its inner "s".
    expect(names('/s')).toEqual(['spawn', 'status']);
    expect(names('/st')).toEqual(['status']);
    expect(names('/mdl')).toEqual(['model']);
  });

  it('closes once whitespace follows the name: the user is typing arguments', () => {
    expect(names('/model ')).toEqual([]);
    expect(names('/spawn write')).toEqual([]);
  });

  it('offers nothing for a name no command matches', () => {
    expect(names('/zzz')).toEqual([]);
  });

  it('keeps the matched letters for highlighting', () => {
    const [model] = menuEntries('/mo', COMMANDS);
    expect(highlightRuns(model!.command.name, model!.indexes)).toEqual([
      { text: 'mo', match: true },
      { text: 'del', match: false },
    ]);
    expect(highlightRuns('model', [0, 2, 4])).toEqual([
      { text: 'm', match: true },
      { text: 'o', match: false },
      { text: 'd', match: true },
      { text: 'e', match: false },
      { text: 'l', match: true },
    ]);
  });
});

describe('moveActive: arrow keys', () => {
  it('moves down and up, wrapping at both ends', () => {
    expect(moveActive(0, 3, 1)).toBe(1);
    expect(moveActive(2, 3, 1)).toBe(0);
    expect(moveActive(0, 3, -1)).toBe(2);
    expect(moveActive(1, 3, -1)).toBe(0);
  });

  it('starts from the nearest end when nothing is active, and is -1 on an empty list', () => {
    expect(moveActive(-1, 3, 1)).toBe(0);
    expect(moveActive(-1, 3, -1)).toBe(2);
    expect(moveActive(7, 3, 1)).toBe(0);
    expect(moveActive(0, 0, 1)).toBe(-1);
  });
});

describe('choosing an entry, the hint, and Enter', () => {
  it('inserts "/<name> ", ready for arguments', () => {
    expect(insertionFor({ name: 'spawn' })).toBe('/spawn ');
  });

  it('shows the hint as ghost text until an argument is typed', () => {
    expect(ghostHint('/spawn ', COMMANDS)).toMatchObject({
      hint: '<prompt>',
      required: true,
      gap: '',
    });
    expect(ghostHint('/model', COMMANDS)).toMatchObject({
      hint: '[<model>]',
      required: false,
      gap: ' ',
    });
    expect(ghostHint('/spawn a haiku', COMMANDS)).toBeUndefined();
    expect(ghostHint('/status ', COMMANDS)).toBeUndefined();
    expect(ghostHint('/nothing ', COMMANDS)).toBeUndefined();
  });

  it('refuses Enter while a required <...> argument is missing, as the terminal chat does', () => {
    expect(sendBlocker('/spawn', COMMANDS)).toBe('/spawn needs an argument: <prompt>.');
    expect(sendBlocker('/spawn   ', COMMANDS)).toBe('/spawn needs an argument: <prompt>.');
    expect(sendBlocker('/spawn write a haiku', COMMANDS)).toBeUndefined();
  });

  it('lets optional arguments, plain text and unknown commands through, but not empty text', () => {
    expect(sendBlocker('/model', COMMANDS)).toBeUndefined();
    expect(sendBlocker('/status', COMMANDS)).toBeUndefined();
    expect(sendBlocker('hello', COMMANDS)).toBeUndefined();
    expect(sendBlocker('/unknown thing', COMMANDS)).toBeUndefined();
    expect(sendBlocker('  \n', COMMANDS)).toBe('Type a message first.');
  });

  it('names the command a text runs', () => {
    expect(commandNameOf('/model openai/x', COMMANDS)).toBe('model');
    expect(commandNameOf('/models', COMMANDS)).toBeUndefined();
    expect(commandNameOf(' /model', COMMANDS)).toBeUndefined();
  });
});
