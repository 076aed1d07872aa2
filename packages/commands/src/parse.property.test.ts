/**
 * SEMANTICS §2 as properties: fast-check generates the texts and parts, and
 * every rule must hold for all of them, not only for the hand-picked rows of
 * parse.test.ts.
 */
import { Role, type Message, type Part } from '@a2a-js/sdk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCommand, parseCommandText, type MessageLike } from './parse.js';
import type { RegisteredCommand } from './command.js';
import { CommandRegistry } from './registry.js';

const RUNS = 5_000;
const SEPARATORS = [' ', '\t', '\r', '\n'];
const NAME = /^[a-z][a-z0-9-]*$/;

/** Any UTF-16 unit: lone surrogates, C0 and C1 controls, DEL, NUL included. */
const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));

/** Pieces that sit near the rules: separators, look-alike spaces and slashes, escapes. */
const trickyPiece = fc.constantFrom(
  ...SEPARATORS,
  '/',
  '-',
  'a',
  'z',
  '0',
  'A',
  '\u000b', // vertical tab: not a separator
  '\u000c', // form feed: not a separator
  '\u00a0', // no-break space
  '\u2028', // line separator
  '\u3000', // ideographic space
  '\ufeff', // byte-order mark
  '\uff0f', // fullwidth solidus
  '\u2215', // division slash
  '\u0430', // Cyrillic a
  '\u202e', // right-to-left override
  '\u001b[2J', // ANSI: clear screen
  '\u001b]0;x\u0007', // OSC: window title
  '\u009b31m', // 8-bit CSI
  '\ud800', // lone high surrogate
  '\udc00', // lone low surrogate
  '😀',
);

/** Strings built from anything a client could send. */
const nastyString = (maxLength = 64) =>
  fc.string({
    unit: fc.oneof(anyUnit, trickyPiece, fc.string({ unit: 'binary', maxLength: 3 })),
    maxLength,
  });

const commandName = fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/);
const separatorRun = fc.string({
  unit: fc.constantFrom(...SEPARATORS),
  minLength: 1,
  maxLength: 6,
});

/** What §2 says the arguments are: the text after the separator run, without trailing separators. */
function expectedArgs(args: string): string {
  let start = 0;
  let end = args.length;
  while (start < end && SEPARATORS.includes(args[start]!)) start++;
  while (end > start && SEPARATORS.includes(args[end - 1]!)) end--;
  return args.slice(start, end);
}

function textPart(value: string): Part {
  return { content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: '' };
}

function sdkMessage(parts: Part[]): Message {
  return {
    messageId: 'm',
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** A registry that knows every name: rule 4 then never hides what rules 1-3 decided. */
const everyName = {
  get: (name: string): RegisteredCommand => ({
    name,
    description: 'any',
    argument_hint: '',
    run: () => '',
  }),
};

/** A non-text part, in either shape. */
const nonTextPart = fc.oneof(
  fc.record({ data: fc.jsonValue() }),
  fc.record({ url: fc.webUrl() }),
  fc.record({ raw: fc.base64String() }),
  fc.constant({}),
  fc.jsonValue().map((value): Part => ({ ...textPart(''), content: { $case: 'data', value } })),
  fc.webUrl().map((value): Part => ({ ...textPart(''), content: { $case: 'url', value } })),
);

describe('parseCommandText: properties over generated text (SEMANTICS §2)', () => {
  it('never throws, and what it returns is a valid name with arguments cut from the text', () => {
    fc.assert(
      fc.property(nastyString(200), (text) => {
        const parsed = parseCommandText(text);
        if (parsed === undefined) return;
        expect(parsed.name).toMatch(NAME);
        expect(text.startsWith(`/${parsed.name}`)).toBe(true);
        const after = text.slice(parsed.name.length + 1);
        expect(after === '' || SEPARATORS.includes(after[0]!)).toBe(true);
        expect(parsed.args).toBe(expectedArgs(after));
      }),
      { numRuns: RUNS },
    );
  });

  it('"/" + name + separators + arguments parses to that name and those arguments', () => {
    fc.assert(
      fc.property(commandName, separatorRun, nastyString(), (name, separator, args) => {
        expect(parseCommandText(`/${name}${separator}${args}`)).toEqual({
          name,
          args: expectedArgs(args),
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('"/" + name alone, or with only separators after it, has empty arguments', () => {
    fc.assert(
      fc.property(
        commandName,
        fc.string({ unit: fc.constantFrom(...SEPARATORS) }),
        (name, tail) => {
          expect(parseCommandText(`/${name}${tail}`)).toEqual({ name, args: '' });
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('arguments keep inner whitespace and every other character exactly', () => {
    const inner = nastyString().filter(
      (s) => s !== '' && !SEPARATORS.includes(s[0]!) && !SEPARATORS.includes(s.at(-1)!),
    );
    fc.assert(
      fc.property(commandName, inner, (name, args) => {
        expect(parseCommandText(`/${name} ${args}`)?.args).toBe(args);
      }),
      { numRuns: RUNS },
    );
  });

  it('a text with anything before the slash (whitespace included) is not a command', () => {
    const prefix = fc.oneof(
      fc.constantFrom(...SEPARATORS, '\u00a0', '\ufeff', '\u3000'),
      nastyString(8),
    );
    fc.assert(
      fc.property(
        prefix.filter((p) => p !== '' && !p.startsWith('/')),
        commandName,
        nastyString(),
        (before, name, args) => {
          expect(parseCommandText(`${before}/${name} ${args}`)).toBeUndefined();
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('a name followed by anything but a separator or a name character is not a command', () => {
    const glued = fc.oneof(anyUnit, trickyPiece).filter((c) => !/^[a-z0-9\- \t\r\n]/.test(c));
    fc.assert(
      fc.property(commandName, glued, nastyString(), (name, next, rest) => {
        expect(parseCommandText(`/${name}${next}${rest}`)).toBeUndefined();
      }),
      { numRuns: RUNS },
    );
  });

  it('look-alike slashes and names that do not start with a lower-case letter are not commands', () => {
    const slash = fc.constantFrom('\uff0f', '\u2215', '\u2044', '\\', '|');
    const badStart = fc.oneof(anyUnit, trickyPiece).filter((c) => !/^[a-z]/.test(c));
    fc.assert(
      fc.property(slash, badStart, commandName, nastyString(), (s, first, name, args) => {
        expect(parseCommandText(`${s}${name} ${args}`)).toBeUndefined();
        expect(parseCommandText(`/${first}${name} ${args}`)).toBeUndefined();
      }),
      { numRuns: RUNS },
    );
  });

  it('huge texts (up to 2 MB) parse whole, without throwing', () => {
    fc.assert(
      fc.property(
        commandName,
        fc.string({
          unit: fc.constantFrom(...SEPARATORS, 'x', '😀', '\ud800', '\u001b'),
          maxLength: 16,
        }),
        fc.integer({ min: 10_000, max: 200_000 }),
        (name, piece, times) => {
          const args = `${piece}y`.repeat(times);
          const text = `/${name} ${args}${' \n'.repeat(times)}`;
          expect(parseCommandText(text)).toEqual({ name, args: expectedArgs(args) });
          expect(parseCommandText(` ${text}`)).toBeUndefined();
        },
      ),
      { numRuns: 20 },
    );
  });
});

describe('parseCommand: properties over generated messages (SEMANTICS §2 rules 1 and 4)', () => {
  const registry = new CommandRegistry();
  for (const name of ['help', 'model', 'title'])
    registry.register({ name, description: name, run: () => '' });

  it('never throws on arbitrary parts, in any shape', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.anything(), nonTextPart, nastyString().map(textPart)), {
          maxLength: 4,
        }),
        (parts) => {
          parseCommand({ parts } as MessageLike, everyName);
          parseCommand({ parts } as MessageLike, registry);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('a sole text part parses as its text does, in the SDK shape and the wire shape alike', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          nastyString(),
          commandName.chain((n) => nastyString().map((a) => `/${n} ${a}`)),
        ),
        (text) => {
          const expected = parseCommandText(text);
          const inMemory = parseCommand(sdkMessage([textPart(text)]), everyName);
          const wire = parseCommand({ parts: [{ text }] }, everyName);
          for (const parsed of [inMemory, wire]) {
            expect(parsed && { name: parsed.name, args: parsed.args }).toEqual(expected);
          }
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('a command text sent with any other part, or a non-text part alone, is never a command', () => {
    fc.assert(
      fc.property(
        commandName,
        nastyString(),
        fc.array(nonTextPart, { minLength: 1, maxLength: 3 }),
        fc.nat(),
        (name, args, others, position) => {
          const at = position % (others.length + 1);
          const parts = [...others.slice(0, at), { text: `/${name} ${args}` }, ...others.slice(at)];
          expect(parseCommand({ parts }, everyName)).toBeUndefined();
          expect(parseCommand({ parts: [others[0]!] }, everyName)).toBeUndefined();
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('only a registered name is a command (rule 4)', () => {
    const someName = fc.oneof(
      fc.constantFrom('help', 'model', 'title', 'helpme', 'mode', 'titles'),
      commandName,
    );
    fc.assert(
      fc.property(someName, separatorRun, nastyString(), (name, separator, args) => {
        const parsed = parseCommand(
          sdkMessage([textPart(`/${name}${separator}${args}`)]),
          registry,
        );
        if (registry.has(name)) expect(parsed?.command.name).toBe(name);
        else expect(parsed).toBeUndefined();
      }),
      { numRuns: RUNS },
    );
  });
});
