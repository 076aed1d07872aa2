import fuzzysort from 'fuzzysort';
import { describe, expect, it } from 'vitest';
import type { CommandSpec } from '../spec.js';
import { argumentHintState, complete, hintRequiresArguments } from './complete.js';

function spec(name: string, argument_hint = ''): CommandSpec {
  return { name, description: `the ${name} command`, argument_hint };
}

const names = (completions: { command: CommandSpec }[]) => completions.map((c) => c.command.name);

const card: readonly CommandSpec[] = [
  spec('help'),
  spec('monitor'),
  spec('model', '[<model>]'),
  spec('mode'),
  spec('echo', '<text>'),
  spec('memo'),
  spec('models'),
];

describe('complete: what the user has typed', () => {
  it('"/" alone offers every command, in card order', () => {
    const completions = complete('/', card);
    expect(names(completions)).toEqual(card.map((c) => c.name));
    for (const completion of completions) {
      expect(completion.kind).toBe('prefix');
      expect(completion.indexes).toEqual([]);
    }
  });

  it('empty input offers every command, in card order', () => {
    expect(names(complete('', card))).toEqual(card.map((c) => c.name));
  });

  it('returns the card objects themselves', () => {
    expect(complete('/help', card)[0]!.command).toBe(card[0]);
  });

  it('a leading "/" is optional', () => {
    expect(complete('mo', card)).toEqual(complete('/mo', card));
  });

  it('§2: once whitespace follows the name, the user is typing arguments: []', () => {
    expect(complete('/model ', card)).toEqual([]);
    expect(complete('/model gpt', card)).toEqual([]);
    expect(complete('/mo\t', card)).toEqual([]);
    expect(complete('/echo\nline', card)).toEqual([]);
  });

  it('§2: leading whitespace means a literal message, not a command: []', () => {
    expect(complete(' /mo', card)).toEqual([]);
  });

  it('nothing matching gives []', () => {
    expect(complete('/zzz', card)).toEqual([]);
  });

  it('is case-insensitive', () => {
    expect(complete('/MO', card)).toEqual(complete('/mo', card));
  });
});

describe('complete: ranking', () => {
  it('prefix matches come first: shorter names first, then card order', () => {
    const completions = complete('/mo', card);
    const prefix = completions.filter((c) => c.kind === 'prefix');
    expect(names(prefix)).toEqual(['mode', 'model', 'models', 'monitor']);
    expect(completions.slice(0, 4)).toEqual(prefix);
  });

  it('an exact match comes first', () => {
    const completions = complete('/model', card);
    expect(completions[0]).toEqual({
      command: card[2],
      kind: 'prefix',
      score: 1,
      indexes: [0, 1, 2, 3, 4],
    });
    expect(names(completions.filter((c) => c.kind === 'prefix'))).toEqual(['model', 'models']);
  });

  it('names of the same length keep card order', () => {
    const same = [spec('mb'), spec('ma'), spec('mc')];
    expect(names(complete('/m', same))).toEqual(['mb', 'ma', 'mc']);
  });

  it('a prefix match has indexes 0..n-1 and score query length / name length', () => {
    const [first] = complete('/hel', card);
    expect(first).toEqual({ command: card[0], kind: 'prefix', score: 3 / 4, indexes: [0, 1, 2] });
  });

  it('fuzzy matches follow, without repeating the prefix matches', () => {
    const completions = complete('/mo', card);
    expect(names(completions)).toEqual(['mode', 'model', 'models', 'monitor', 'memo']);
    expect(completions[4]!.kind).toBe('fuzzy');
    // fuzzysort prefers the contiguous "mo" in me*mo*.
    expect(completions[4]!.indexes).toEqual([2, 3]);
  });

  it('"mdl" finds model by fuzzy match, with the matched positions', () => {
    const completions = complete('/mdl', card);
    expect(completions.length).toBeGreaterThan(0);
    expect(completions.every((c) => c.kind === 'fuzzy')).toBe(true);
    const model = completions.find((c) => c.command.name === 'model');
    expect(model?.indexes).toEqual([0, 2, 4]);
    expect(names(completions)).toContain('models');
  });

  it('fuzzy matches are ranked by fuzzysort score', () => {
    // One-word names: no word-start match, so the ranking is fuzzysort's alone.
    const commands = [
      spec('clearfiltergroup'),
      spec('config'),
      spec('cancelfg'),
      spec('copyfilegz'),
    ];
    const completions = complete('/cfg', commands);
    expect(completions.every((c) => c.kind === 'fuzzy')).toBe(true);
    const expected = commands
      .map((c) => ({ name: c.name, score: fuzzysort.single('cfg', c.name)?.score ?? -1 }))
      .filter((c) => c.score > 0)
      .sort((a, b) => b.score - a.score);
    expect(names(completions)).toEqual(expected.map((c) => c.name));
    for (const completion of completions) {
      expect(completion.score).toBeCloseTo(fuzzysort.single('cfg', completion.command.name)!.score);
    }
  });

  it('fuzzy matches with equal scores keep card order', () => {
    const commands = [spec('zby'), spec('aby'), spec('qqby'), spec('cby'), spec('xby')];
    const completions = complete('/by', commands);
    expect(names(completions)).toEqual(['zby', 'aby', 'cby', 'xby', 'qqby']);
    expect(completions[0]!.score).toBe(completions[3]!.score);
    expect(completions[4]!.score).toBeLessThan(completions[3]!.score);
  });

  it('limit caps the results, prefix matches first', () => {
    expect(names(complete('/mo', card, { limit: 2 }))).toEqual(['mode', 'model']);
    expect(names(complete('/mo', card, { limit: 5 }))).toEqual([
      'mode',
      'model',
      'models',
      'monitor',
      'memo',
    ]);
    expect(complete('/', card, { limit: 3 })).toHaveLength(3);
    expect(complete('/mo', card, { limit: 0 })).toEqual([]);
  });

  it('an empty card offers nothing', () => {
    expect(complete('/', [])).toEqual([]);
    expect(complete('/mo', [])).toEqual([]);
  });
});

describe('complete: prefix, then word starts, then letters in order', () => {
  const picker = [
    spec('shout', '<text>'),
    spec('help'),
    spec('list-models'),
    spec('clear-history'),
    spec('models'),
    spec('demo'),
    spec('show-help'),
  ];

  it('/h offers the names that start a word with h, not every name holding an h', () => {
    const completions = complete('/h', picker);
    // show-help before clear-history: "h" is a larger share of the shorter name.
    expect(names(completions)).toEqual(['help', 'show-help', 'clear-history']);
    expect(completions.map((c) => c.kind)).toEqual(['prefix', 'word', 'word']);
    expect(completions[1]!.indexes).toEqual([5]);
  });

  it('a one-letter query never matches letters inside a word', () => {
    for (const letter of 'abcdefghijklmnopqrstuvwxyz') {
      for (const completion of complete(`/${letter}`, picker)) {
        expect(completion.kind).not.toBe('fuzzy');
        const at = completion.indexes[0]!;
        expect(at === 0 || completion.command.name[at - 1] === '-').toBe(true);
      }
    }
  });

  it('/mo: prefix matches, then the word start in list-models, then demo by its letters', () => {
    const completions = complete('/mo', picker);
    expect(names(completions)).toEqual(['models', 'list-models', 'demo']);
    expect(completions.map((c) => c.kind)).toEqual(['prefix', 'word', 'fuzzy']);
    expect(completions[1]!.indexes).toEqual([5, 6]);
  });

  it('initials spell a name: /lm is list-models, /ch is clear-history', () => {
    expect(complete('/lm', picker)[0]).toMatchObject({
      command: { name: 'list-models' },
      kind: 'word',
      indexes: [0, 5],
    });
    expect(complete('/ch', picker)[0]).toMatchObject({
      command: { name: 'clear-history' },
      kind: 'word',
      indexes: [0, 6],
    });
  });

  it('/cfg: the names it spells by word starts come before config', () => {
    const commands = [
      spec('clear-filter-group'),
      spec('config'),
      spec('cancel-fg'),
      spec('copy-file-gz'),
    ];
    const completions = complete('/cfg', commands);
    expect(names(completions)).toEqual([
      'cancel-fg',
      'copy-file-gz',
      'clear-filter-group',
      'config',
    ]);
    expect(completions.map((c) => c.kind)).toEqual(['word', 'word', 'word', 'fuzzy']);
    expect(completions[0]!.indexes).toEqual([0, 7, 8]);
  });

  it('word matches using fewer words rank first, then card order', () => {
    const commands = [spec('set-t-title'), spec('show-title'), spec('a-ti')];
    // show-title and set-t-title both hold "ti" at a word start; a-ti is shorter, so a larger share.
    expect(names(complete('/ti', commands))).toEqual(['a-ti', 'show-title', 'set-t-title']);
  });

  it('a hostile card of long many-word names still answers, with the fewest words', () => {
    const long = spec(Array.from({ length: 2000 }, () => 'a').join('-') + '-abc');
    const [match] = complete('/aaaaaaaaaaaaaaaaaaaaaaaabc', [long]);
    expect(match?.kind).toBe('word');
    expect(match?.indexes).toHaveLength(26);
    expect(complete('/abc', [long])[0]?.indexes).toEqual([4000, 4001, 4002]);
  });
});

describe('complete: 1,000 commands', () => {
  const many: CommandSpec[] = Array.from({ length: 1000 }, (_, i) =>
    spec(`cmd-${String(i).padStart(4, '0')}`),
  );
  many.splice(500, 0, spec('model'));

  it('finds prefix matches in card order', () => {
    const completions = complete('/cmd-09', many);
    const prefix = completions.filter((c) => c.kind === 'prefix');
    expect(prefix).toHaveLength(100);
    expect(prefix[0]!.command.name).toBe('cmd-0900');
    expect(prefix[99]!.command.name).toBe('cmd-0999');
  });

  it('finds a fuzzy match among many, and the same again on the next keystroke', () => {
    for (let i = 0; i < 100; i++) {
      const completions = complete('/mdl', many);
      expect(names(completions)).toEqual(['model']);
    }
  });

  it('"/" lists all 1,001 in card order', () => {
    expect(names(complete('/', many))).toEqual(many.map((c) => c.name));
  });

  it('sees a command pushed onto the same array', () => {
    const growing = [spec('alpha')];
    expect(names(complete('/zu', growing))).toEqual([]);
    growing.push(spec('zulu'));
    expect(names(complete('/zu', growing))).toEqual(['zulu']);
  });
});

describe('argumentHintState (refusing Enter)', () => {
  const commands = [spec('model', '[<model>]'), spec('ask', '<prompt>'), spec('help')];

  it('an optional argument is not missing', () => {
    expect(argumentHintState('/model', commands)).toEqual({
      command: commands[0],
      hint: '[<model>]',
      args: '',
      requiredMissing: false,
    });
    expect(argumentHintState('/model ', commands)?.requiredMissing).toBe(false);
  });

  it('a required argument is missing until something is typed', () => {
    expect(argumentHintState('/ask', commands)?.requiredMissing).toBe(true);
    expect(argumentHintState('/ask   ', commands)?.requiredMissing).toBe(true);
    expect(argumentHintState('/ask \n', commands)?.requiredMissing).toBe(true);
    expect(argumentHintState('/ask why', commands)).toMatchObject({
      args: 'why',
      requiredMissing: false,
    });
  });

  it('a command without arguments never misses one', () => {
    expect(argumentHintState('/help', commands)).toMatchObject({
      hint: '',
      requiredMissing: false,
    });
  });

  it.each(['/as', '/asks', '/unknown x', 'ask', ' /ask', '/Ask', '/ask:x', '/', ''])(
    '§2: %j names no listed command: undefined',
    (input) => {
      expect(argumentHintState(input, commands)).toBeUndefined();
    },
  );
});

describe('hintRequiresArguments', () => {
  it.each([
    ['<prompt>', true],
    ['[<model>]', false],
    ['', false],
    ['<name> [<value>]', true],
    ['[<a>] <b>', true],
    ['[<a>]<b>', true],
    ['[<a> [<b>]]', false],
    ['[--flag] <file>', true],
    ['text', false],
    ['<', false],
  ])('%j → %s', (hint, required) => {
    expect(hintRequiresArguments(hint)).toBe(required);
  });
});
