import { complete, type CommandSpec } from 'a2a-commands/client';
import { argumentPosition, type ArgumentValues } from 'a2a-commands/client/completion';
import { describe, expect, it } from 'vitest';
import { enterWithList, type OpenList } from './enter-rule.js';

const COMMANDS: CommandSpec[] = [
  { name: 'help', description: 'List the commands', argument_hint: '[<command>]' },
  { name: 'model', description: "Show or choose this task's model", argument_hint: '[<model>]' },
  { name: 'status', description: 'Show this task', argument_hint: '' },
  { name: 'deploy', description: 'Deploy', argument_hint: '<environment> [<note>]' },
];

function names(input: string, highlighted = 0): OpenList {
  return { kind: 'commands', entries: complete(input, COMMANDS), highlighted };
}

function values(input: string, offered: string[], highlighted = 0, moved = false): OpenList {
  const position = argumentPosition(input)!;
  const list: ArgumentValues = {
    position,
    argument: { name: 'argument' },
    values: offered.map((value) => ({ value })),
    hasMore: false,
    source: 'choices',
  };
  return { kind: 'values', offered: list, highlighted, moved };
}

const enter = (input: string, list?: OpenList) => enterWithList(input, list, COMMANDS);

describe('Enter on the list of commands', () => {
  it('takes the highlighted name and waits for the argument when the command takes one', () => {
    expect(enter('/mo', names('/mo'))).toEqual({ kind: 'fill', text: '/model ' });
    expect(enter('/', names('/'))).toEqual({ kind: 'fill', text: '/help ' });
  });

  it('takes the highlighted name and sends when the command takes no argument', () => {
    expect(enter('/sta', names('/sta'))).toEqual({ kind: 'send', text: '/status' });
  });

  it('leaves a name typed in full as it is: Enter sends it', () => {
    expect(enter('/model', names('/model'))).toEqual({ kind: 'as-typed' });
    expect(enter('/status', names('/status'))).toEqual({ kind: 'as-typed' });
  });
});

describe('Enter on the list of values', () => {
  it('/model beta with openai/fake-beta highlighted sends /model openai/fake-beta', () => {
    expect(enter('/model beta', values('/model beta', ['openai/fake-beta']))).toEqual({
      kind: 'send',
      text: '/model openai/fake-beta',
    });
  });

  it('/help mo with model highlighted sends /help model', () => {
    expect(enter('/help mo', values('/help mo', ['model', 'mode']))).toEqual({
      kind: 'send',
      text: '/help model',
    });
  });

  it('a value that is not the last argument fills and waits for the next one', () => {
    expect(enter('/deploy sta', values('/deploy sta', ['staging', 'production']))).toEqual({
      kind: 'fill',
      text: '/deploy staging ',
    });
    expect(enter('/deploy staging x', values('/deploy staging x', ['xmas']))).toEqual({
      kind: 'send',
      text: '/deploy staging xmas',
    });
  });

  it('leaves the line as typed when it is the highlighted value', () => {
    const input = '/model openai/fake-beta';
    expect(enter(input, values(input, ['openai/fake-beta']))).toEqual({ kind: 'as-typed' });
  });

  it('with nothing typed, takes the highlight only once it was moved', () => {
    const offered = ['offline/echo', 'openai/fake-beta'];
    expect(enter('/model ', values('/model ', offered))).toEqual({ kind: 'as-typed' });
    expect(enter('/model ', values('/model ', offered, 1, true))).toEqual({
      kind: 'send',
      text: '/model openai/fake-beta',
    });
  });
});

it('with no list open, Enter sends what is typed', () => {
  expect(enter('/mo')).toEqual({ kind: 'as-typed' });
});
