import { describe, expect, it } from 'vitest';
import { commandNameFromFile, parseCommandFile } from './parse-file.js';

function ok(fileName: string, content: string) {
  const result = parseCommandFile(fileName, content);
  if (!result.ok) throw new Error(`expected ok, got: ${result.reason}`);
  return result.definition;
}

function reason(fileName: string, content: string): string {
  const result = parseCommandFile(fileName, content);
  if (result.ok) throw new Error(`expected a failure for ${fileName}`);
  return result.reason;
}

describe('parseCommandFile: frontmatter', () => {
  it('reads description, argument-hint and model', () => {
    const definition = ok(
      'review.md',
      [
        '---',
        'description: Review a file',
        'argument-hint: "<file> [focus]"',
        'model: anthropic/claude-sonnet-4',
        '---',
        '',
        'Review $1 with a focus on $2.',
        '',
      ].join('\n'),
    );
    expect(definition).toEqual({
      name: 'review',
      description: 'Review a file',
      argument_hint: '<file> [focus]',
      model: 'anthropic/claude-sonnet-4',
      template: 'Review $1 with a focus on $2.',
    });
  });

  it('accepts CRLF line endings and a BOM', () => {
    const definition = ok('x.md', '\uFEFF---\r\ndescription: Crlf\r\n---\r\nBody\r\n');
    expect(definition.description).toBe('Crlf');
    expect(definition.template).toBe('Body');
  });

  it('accepts an empty frontmatter block and `...` as its end', () => {
    expect(ok('x.md', '---\n---\nHello').template).toBe('Hello');
    expect(ok('x.md', '---\ndescription: Dots\n...\nHello').description).toBe('Dots');
  });

  it('ignores unknown keys and leaves model unset when absent', () => {
    const definition = ok('x.md', '---\ndescription: D\nallowed-tools: [a, b]\n---\nHi');
    expect(definition).toEqual({ name: 'x', description: 'D', argument_hint: '', template: 'Hi' });
    expect('model' in definition).toBe(false);
  });

  it('without frontmatter, the whole file is the template', () => {
    const definition = ok('plain.md', '\n\nSummarise $ARGUMENTS\n\nBe brief.\n');
    expect(definition.template).toBe('Summarise $ARGUMENTS\n\nBe brief.');
    expect(definition.argument_hint).toBe('');
  });

  it('a `---` later in the body is not frontmatter', () => {
    const definition = ok('x.md', 'Intro\n---\nmore');
    expect(definition.template).toBe('Intro\n---\nmore');
  });

  it('refuses bad YAML, an unclosed block and a non-mapping', () => {
    expect(reason('x.md', '---\ndescription: [unclosed\n---\nBody')).toMatch(/invalid YAML/);
    expect(reason('x.md', '---\ndescription: a\ndescription: b\n---\nBody')).toMatch(
      /invalid YAML/,
    );
    expect(reason('x.md', '---\ndescription: x\nBody without end')).toMatch(/closing "---"/);
    expect(reason('x.md', '---\n- a\n- b\n---\nBody')).toMatch(/mapping/);
    expect(reason('x.md', '---\njust a string\n---\nBody')).toMatch(/mapping/);
  });

  it('survives an alias bomb', () => {
    const bomb = [
      '---',
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
      '---',
      'Body',
    ].join('\n');
    expect(reason('x.md', bomb)).toMatch(/invalid YAML/);
  });
});

describe('parseCommandFile: description', () => {
  it('falls back to the first non-empty body line without a heading marker', () => {
    expect(ok('x.md', '\n\n## Review the diff  \nthen more').description).toBe('Review the diff');
    expect(ok('x.md', '---\ndescription:\n---\nFirst line').description).toBe('First line');
  });

  it('cuts the fallback to 80 characters', () => {
    const line = 'word '.repeat(40).trim();
    const description = ok('x.md', line).description;
    expect(Array.from(description)).toHaveLength(80);
    expect(description.endsWith('…')).toBe(true);
    expect(ok('x.md', 'a'.repeat(80)).description).toBe('a'.repeat(80));
  });

  it('refuses a description that is given but blank or not a string', () => {
    expect(reason('x.md', '---\ndescription: ""\n---\nBody')).toMatch(/"description" is empty/);
    expect(reason('x.md', '---\ndescription: 42\n---\nBody')).toMatch(/must be a string/);
    expect(reason('x.md', '---\ndescription: [a]\n---\nBody')).toMatch(/must be a string/);
  });

  it('refuses an empty body', () => {
    expect(reason('x.md', '---\ndescription: D\n---\n  \n')).toMatch(/empty/);
    expect(reason('x.md', '')).toMatch(/empty/);
  });
});

describe('parseCommandFile: argument-hint and model', () => {
  it('refuses an unquoted [hint], which YAML reads as a list', () => {
    expect(reason('x.md', '---\nargument-hint: [file]\n---\nBody')).toMatch(/quote it/);
    expect(ok('x.md', '---\nargument-hint: "[file]"\n---\nBody').argument_hint).toBe('[file]');
  });

  it.each([
    'openai/gpt-5',
    'anthropic/claude-sonnet-4-5',
    'openrouter/anthropic/claude-3.5',
    'bedrock/anthropic.claude-v2:1',
  ])('accepts model %s', (model) => {
    expect(ok('x.md', `---\nmodel: ${model}\n---\nBody`).model).toBe(model);
  });

  it.each(['gpt-5', '/gpt-5', 'openai/', 'openai/ gpt', '"openai/gpt 5"', '42', '[a/b]', '""'])(
    'refuses model %s',
    (model) => {
      expect(reason('x.md', `---\nmodel: ${model}\n---\nBody`)).toMatch(/<provider>\/<model>/);
    },
  );
});

describe('command names from file names', () => {
  it.each(['review.md', 'a.md', 'fix-bug2.md', 'x-.md'])('accepts %s', (fileName) => {
    expect(commandNameFromFile(fileName)).toEqual({ ok: true, name: fileName.slice(0, -3) });
  });

  it.each([
    ['Review.md', /invalid command name "Review"/],
    ['my cmd.md', /invalid command name "my cmd"/],
    ['1x.md', /invalid command name "1x"/],
    ['my_cmd.md', /invalid command name/],
    ['.md', /dotfile/],
    ['.hidden.md', /dotfile/],
    ['notes.txt', /not a \.md file/],
    ['review.MD', /not a \.md file/],
    ['review.md.bak', /not a \.md file/],
    ['../evil.md', /path separator/],
    ['sub/evil.md', /path separator/],
    ['sub\\evil.md', /path separator/],
    ['nul\0.md', /path separator/],
    ['', /empty/],
  ])('refuses %j', (fileName, why) => {
    const result = commandNameFromFile(fileName);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(why);
    expect(parseCommandFile(fileName, 'Body').ok).toBe(false);
  });
});

describe('parseCommandFile: who may run it (principals, groups)', () => {
  it('takes a name or a list for each; neither means everyone', () => {
    expect(ok('a.md', '---\nprincipals: alice\n---\nx').callers).toEqual({
      principals: ['alice'],
      groups: [],
    });
    expect(ok('a.md', '---\nprincipals: [alice, bob]\ngroups: [ops]\n---\nx').callers).toEqual({
      principals: ['alice', 'bob'],
      groups: ['ops'],
    });
    expect(ok('a.md', '---\ndescription: d\n---\nx').callers).toBeUndefined();
  });

  it.each([
    ['principals: []', /"principals" is an empty list/],
    ['groups: [ops, 3]', /"groups" must be a name or a list of names/],
    ['principals: {alice: 1}', /"principals" must be a name or a list of names/],
    ['groups: "two words"', /"groups" must be/],
  ])('refuses %s', (line, message) => {
    expect(reason('a.md', `---\n${line}\n---\nx`)).toMatch(message);
  });
});
