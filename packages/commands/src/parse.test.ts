import { Role, type Message, type Part } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { parseCommand, parseCommandText, type MessageLike } from './parse.js';
import { CommandRegistry } from './registry.js';

const registry = new CommandRegistry();
for (const name of ['help', 'model', 'echo', 'a-b', 'x9']) {
  registry.register({ name, description: `the ${name} command`, run: () => name });
}

/** A part in the SDK's in-memory shape. */
function part(content: Part['content'], extras: Partial<Part> = {}): Part {
  return { content, metadata: undefined, filename: '', mediaType: '', ...extras };
}

function textPart(value: string, extras: Partial<Part> = {}): Part {
  return part({ $case: 'text', value }, extras);
}

/** A user message in the SDK's in-memory shape. */
function message(...parts: Part[]): Message {
  return {
    messageId: 'm-1',
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

const say = (text: string): Message => message(textPart(text));

const ONE_MB = 1024 * 1024;
const bigArgument = 'x'.repeat(ONE_MB - 2) + '\n' + 'y';

interface Row {
  description: string;
  message: MessageLike;
  expected: { name: string; args: string } | undefined;
}

const rows: Row[] = [
  // Commands, SEMANTICS §2 rules 1-4.
  { description: '§2: /help alone', message: say('/help'), expected: { name: 'help', args: '' } },
  {
    description: '§2: /model with one argument',
    message: say('/model gpt-x'),
    expected: { name: 'model', args: 'gpt-x' },
  },
  {
    description: '§2.3: a name with a hyphen',
    message: say('/a-b go'),
    expected: { name: 'a-b', args: 'go' },
  },
  {
    description: '§2.3: a name with a digit',
    message: say('/x9 1 2'),
    expected: { name: 'x9', args: '1 2' },
  },
  {
    description: '§2.3: tab separates the name from the arguments',
    message: say('/echo\thello'),
    expected: { name: 'echo', args: 'hello' },
  },
  {
    description: '§2.3: CR separates the name from the arguments',
    message: say('/echo\rhello'),
    expected: { name: 'echo', args: 'hello' },
  },
  {
    description: '§2.3: LF separates the name from the arguments',
    message: say('/echo\nhello'),
    expected: { name: 'echo', args: 'hello' },
  },
  {
    description: '§2.3: CRLF separates the name from the arguments',
    message: say('/echo\r\nhello'),
    expected: { name: 'echo', args: 'hello' },
  },
  {
    description: '§2: the whole run of whitespace after the name is skipped',
    message: say('/echo \t\r\n  hello'),
    expected: { name: 'echo', args: 'hello' },
  },
  {
    description: '§2: arguments may be empty (trailing spaces)',
    message: say('/help   '),
    expected: { name: 'help', args: '' },
  },
  {
    description: '§2: arguments may be empty (trailing LF)',
    message: say('/help\n'),
    expected: { name: 'help', args: '' },
  },
  {
    description: '§2: arguments may be empty (mixed trailing whitespace)',
    message: say('/help \t\r\n'),
    expected: { name: 'help', args: '' },
  },
  {
    description: '§2: trailing whitespace is removed from the arguments',
    message: say('/echo hello world \t \r\n\n'),
    expected: { name: 'echo', args: 'hello world' },
  },
  {
    description: '§2: inner spaces are kept',
    message: say('/echo a   b    c'),
    expected: { name: 'echo', args: 'a   b    c' },
  },
  {
    description: '§2: multi-line arguments keep inner newlines and indentation',
    message: say('/echo line one\n  line two\n\n\tline four\r\nend  \n'),
    expected: { name: 'echo', args: 'line one\n  line two\n\n\tline four\r\nend' },
  },
  {
    description: '§2: a 1 MB argument is kept whole',
    message: say(`/echo ${bigArgument}\n`),
    expected: { name: 'echo', args: bigArgument },
  },
  {
    description: '§2.1: a text part with metadata is still a command',
    message: message(textPart('/help', { metadata: { from: 'cli' } })),
    expected: { name: 'help', args: '' },
  },
  {
    description: '§2.1: a text part with mediaType text/markdown is still a command',
    message: message(textPart('/model x', { mediaType: 'text/markdown' })),
    expected: { name: 'model', args: 'x' },
  },
  {
    description: '§2: arguments that look like another command are just arguments',
    message: say('/echo /help'),
    expected: { name: 'echo', args: '/help' },
  },

  // Not commands, SEMANTICS §2 list.
  { description: '§2: /Help is not a command', message: say('/Help'), expected: undefined },
  { description: '§2: /HELP is not a command', message: say('/HELP'), expected: undefined },
  {
    description: '§2.2: " /help" with a leading space is not a command',
    message: say(' /help'),
    expected: undefined,
  },
  {
    description: '§2.2: "\\n/help" with a leading newline is not a command',
    message: say('\n/help'),
    expected: undefined,
  },
  {
    description: '§2: /etc/hosts is not a command',
    message: say('/etc/hosts'),
    expected: undefined,
  },
  { description: '§2: /help:x is not a command', message: say('/help:x'), expected: undefined },
  {
    description: '§2.4: /helpme is not a command when helpme is not registered',
    message: say('/helpme'),
    expected: undefined,
  },
  {
    description: '§2.4: an unregistered name with arguments is not a command',
    message: say('/deploy now'),
    expected: undefined,
  },
  {
    description: '§2.1: a /help text part sent with another text part is not a command',
    message: message(textPart('/help'), textPart('more')),
    expected: undefined,
  },
  {
    description: '§2.1: a /help text part sent with a data part is not a command',
    message: message(textPart('/help'), part({ $case: 'data', value: { a: 1 } })),
    expected: undefined,
  },
  {
    description: '§2.1: a url file part alone is not a command',
    message: message(part({ $case: 'url', value: 'https://x/y' }, { filename: '/help' })),
    expected: undefined,
  },
  {
    description: '§2.1: a raw file part alone is not a command',
    message: message(part({ $case: 'raw', value: Buffer.from('/help') })),
    expected: undefined,
  },
  {
    description: '§2.1: a data part alone is not a command',
    message: message(part({ $case: 'data', value: '/help' })),
    expected: undefined,
  },
  {
    description: '§2.1: a part with no content is not a command',
    message: message(part(undefined)),
    expected: undefined,
  },
  {
    description: '§2.1: an empty parts list is not a command',
    message: message(),
    expected: undefined,
  },
  { description: '§2.2: empty text is not a command', message: say(''), expected: undefined },
  { description: '§2.3: "/" alone is not a command', message: say('/'), expected: undefined },
  {
    description: '§2.3: "/ help" (space before the name) is not a command',
    message: say('/ help'),
    expected: undefined,
  },
  {
    description: '§2.3: /1abc (name starts with a digit) is not a command',
    message: say('/1abc'),
    expected: undefined,
  },
  {
    description: '§2.3: /-x (name starts with a hyphen) is not a command',
    message: say('/-x'),
    expected: undefined,
  },
  { description: '§2.2: //help is not a command', message: say('//help'), expected: undefined },
  {
    description: '§2.3: /mоdel with a Cyrillic о (U+043E) is not /model',
    message: say('/m\u043Edel x'),
    expected: undefined,
  },
  {
    description: '§2.2: a fullwidth slash (U+FF0F) is not a slash',
    message: say('\uFF0Fhelp'),
    expected: undefined,
  },
  {
    description: '§2.3: NBSP (U+00A0) after the name is not a separator',
    message: say('/model\u00A0x'),
    expected: undefined,
  },
  {
    description: '§2.3: vertical tab after the name is not a separator',
    message: say('/help\u000Bx'),
    expected: undefined,
  },

  // The JSON wire shape.
  {
    description: '§2: wire shape {text:"/help"} is a command',
    message: { parts: [{ text: '/help' }] },
    expected: { name: 'help', args: '' },
  },
  {
    description: '§2: wire shape with arguments and part metadata is a command',
    message: { parts: [{ text: '/model  big\n', metadata: { k: 1 } } as { text: string }] },
    expected: { name: 'model', args: 'big' },
  },
  {
    description: '§2.1: wire shape text + data parts is not a command',
    message: { parts: [{ text: '/help' }, { data: { x: 1 } }] },
    expected: undefined,
  },
  {
    description: '§2.1: wire shape url part alone is not a command',
    message: { parts: [{ url: 'https://x/help' }] },
    expected: undefined,
  },
  {
    description: '§2: wire shape /Help is not a command',
    message: { parts: [{ text: '/Help' }] },
    expected: undefined,
  },
];

describe('parseCommand (SEMANTICS §2)', () => {
  it('has at least 35 cases', () => {
    expect(rows.length).toBeGreaterThanOrEqual(35);
  });

  it.each(rows)('$description', ({ message, expected }) => {
    const parsed = parseCommand(message, registry);
    if (expected === undefined) {
      expect(parsed).toBeUndefined();
      return;
    }
    expect(parsed).toBeDefined();
    expect({ name: parsed!.name, args: parsed!.args }).toEqual(expected);
    expect(parsed!.command).toBe(registry.get(expected.name));
  });

  it('§2: a 1 MB argument comes back with exactly its length', () => {
    const parsed = parseCommand(say(`/echo ${bigArgument}  \r\n`), registry);
    expect(parsed?.args.length).toBe(ONE_MB);
    expect(parsed?.args.endsWith('\ny')).toBe(true);
  });

  it('§2.4: a command unregistered later is an ordinary message again', () => {
    const local = new CommandRegistry();
    local.register({ name: 'tmp', description: 'temporary', run: () => '' });
    expect(parseCommand(say('/tmp'), local)?.name).toBe('tmp');
    local.unregister('tmp');
    expect(parseCommand(say('/tmp'), local)).toBeUndefined();
  });
});

describe('parseCommandText (SEMANTICS §2 rules 2-3)', () => {
  it.each([
    ['/help', { name: 'help', args: '' }],
    ['/anything at all', { name: 'anything', args: 'at all' }],
    ['/a-b-c9\n\nx\n', { name: 'a-b-c9', args: 'x' }],
    ['/x \t', { name: 'x', args: '' }],
  ])('§2.3: %j splits into name and arguments, registered or not', (text, expected) => {
    expect(parseCommandText(text)).toEqual(expected);
  });

  it.each(['', '/', ' /help', '/Help', '/help:x', '/etc/hosts', '/1a', '/-a', '/a\u00A0b', 'help'])(
    '§2: %j is not the shape of a command',
    (text) => {
      expect(parseCommandText(text)).toBeUndefined();
    },
  );

  it('§2: only space, tab, CR and LF are trimmed from the end', () => {
    expect(parseCommandText('/echo x\u00A0')).toEqual({ name: 'echo', args: 'x\u00A0' });
  });
});
