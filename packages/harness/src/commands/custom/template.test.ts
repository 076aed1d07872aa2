import { describe, expect, it } from 'vitest';
import { expandTemplate, splitArguments, usesArguments } from './template.js';

describe('splitArguments', () => {
  it.each([
    ['', []],
    ['   ', []],
    ['a', ['a']],
    ['a b\tc\nd', ['a', 'b', 'c', 'd']],
    ['  a   b  ', ['a', 'b']],
    ['"src/a b.ts" fast', ['src/a b.ts', 'fast']],
    ['x "two  spaces" y', ['x', 'two  spaces', 'y']],
    ['"" b', ['', 'b']],
    ['a"b c"d', ['ab cd']],
    ['"open quote runs on', ['open quote runs on']],
    ["it's 'single'", ["it's", "'single'"]],
    ['C:\\dir\\file.ts', ['C:\\dir\\file.ts']],
  ])('%j → %j', (args, expected) => {
    expect(splitArguments(args)).toEqual(expected);
  });
});

describe('expandTemplate', () => {
  it('expands $ARGUMENTS to the arguments as typed', () => {
    expect(expandTemplate('Do: $ARGUMENTS!', '"a b"  c\nd')).toBe('Do: "a b"  c\nd!');
  });

  it('expands $1..$9 from split arguments, quoted ones included', () => {
    expect(expandTemplate('Review $1 ($2)', '"src/a b.ts" fast')).toBe('Review src/a b.ts (fast)');
    expect(expandTemplate('$9$8$7$6$5$4$3$2$1', '1 2 3 4 5 6 7 8 9')).toBe('987654321');
  });

  it('expands missing positional arguments to the empty string', () => {
    expect(expandTemplate('[$1][$2][$3]', 'only')).toBe('[only][][]');
    expect(expandTemplate('[$1] $ARGUMENTS', '')).toBe('[] ');
  });

  it('reads one digit only: $10 is $1 then 0', () => {
    expect(expandTemplate('$10', 'a b')).toBe('a0');
  });

  it('keeps other dollars as they are', () => {
    expect(expandTemplate('cost: 5$ $0 $HOME $ $x', 'a')).toBe('cost: 5$ $0 $HOME $ $x\n\na');
  });

  it('turns $$ into a literal $, so placeholders can be written literally', () => {
    expect(expandTemplate('$$1 is $1, $$ARGUMENTS is $ARGUMENTS, $$$1', 'x')).toBe(
      '$1 is x, $ARGUMENTS is x, $x',
    );
    expect(expandTemplate('$$$$', '')).toBe('$$');
  });

  it('never expands placeholders that come from the arguments (single pass)', () => {
    expect(expandTemplate('A=$1 B=$2', '$2 secret')).toBe('A=$2 B=secret');
    expect(expandTemplate('A=$1', '$ARGUMENTS')).toBe('A=$ARGUMENTS');
    expect(expandTemplate('$ARGUMENTS', '$1 $ARGUMENTS $$')).toBe('$1 $ARGUMENTS $$');
    expect(expandTemplate('$1 $2', '"$ARGUMENTS$1" x')).toBe('$ARGUMENTS$1 x');
  });

  it("does not apply String.replace's $ patterns from arguments", () => {
    expect(expandTemplate('[$1]', "$& $` $' $<x>")).toBe('[$&]');
    expect(expandTemplate('[$ARGUMENTS]', "$& $` $'")).toBe("[$& $` $']");
  });

  it('appends the arguments when the template uses none', () => {
    expect(expandTemplate('Review this', 'src/a.ts')).toBe('Review this\n\nsrc/a.ts');
    expect(expandTemplate('Review this', '')).toBe('Review this');
    expect(expandTemplate('Price $$5', 'x')).toBe('Price $5\n\nx');
    expect(expandTemplate('Review $1', 'a b')).toBe('Review a');
  });

  it('usesArguments ignores $$', () => {
    expect(usesArguments('a $$1')).toBe(false);
    expect(usesArguments('a $1')).toBe(true);
    expect(usesArguments('$ARGUMENTS')).toBe(true);
    expect(usesArguments('plain')).toBe(false);
  });
});
