import { describe, expect, it } from 'vitest';
import { parseCommandFile } from './parse-file.js';

const file = (frontmatter: string) => `---\n${frontmatter}\n---\nDo $1.\n`;

describe('frontmatter "arguments"', () => {
  it('takes choices as strings or {value, description}, per positional argument', () => {
    const parsed = parseCommandFile(
      'ship.md',
      file(
        'arguments:\n  - name: env\n    description: Where to\n    choices: [staging, {value: prod, description: Live}]\n  - name: note',
      ),
    );
    expect(parsed.ok && parsed.definition.arguments).toEqual([
      {
        name: 'env',
        description: 'Where to',
        choices: [{ value: 'staging' }, { value: 'prod', description: 'Live' }],
      },
      { name: 'note' },
    ]);
  });

  it('reads YAML numbers and booleans as text', () => {
    const parsed = parseCommandFile(
      'n.md',
      file('arguments:\n  - name: n\n    choices: [1, 2, true]'),
    );
    expect(parsed.ok && parsed.definition.arguments?.[0]?.choices).toEqual([
      { value: '1' },
      { value: '2' },
      { value: 'true' },
    ]);
  });

  it.each([
    ['arguments: env', '"arguments" must be a list'],
    ['arguments:\n  - choices: [a]', '"arguments" entry 1 needs a "name" string'],
    ['arguments:\n  - name: env\n    choices: a', '"arguments" entry 1: "choices" must be a list'],
    [
      'arguments:\n  - name: env\n    choices: ["two words"]',
      '"arguments" entry 1: every choice must be a value without spaces, or {value, description}',
    ],
  ])('refuses %j with a reason', (frontmatter, reason) => {
    expect(parseCommandFile('bad.md', file(frontmatter))).toEqual({ ok: false, reason });
  });

  it('a file without "arguments" declares none', () => {
    const parsed = parseCommandFile('plain.md', 'Do it.');
    expect(parsed.ok && parsed.definition.arguments).toBeUndefined();
  });
});
