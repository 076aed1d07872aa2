import { describe, expect, it } from 'vitest';
import { noColorWanted, withoutColors } from './no-color.js';

const ESC = '\u001b';

describe('withoutColors', () => {
  it('takes colours out and keeps bold, dim, underline and inverse', () => {
    expect(withoutColors(`${ESC}[1m${ESC}[32m◆ agent${ESC}[39m${ESC}[22m`)).toBe(
      `${ESC}[1m◆ agent${ESC}[22m`,
    );
    expect(withoutColors(`${ESC}[1;31;4mx${ESC}[0m`)).toBe(`${ESC}[1;4mx${ESC}[0m`);
    expect(withoutColors(`${ESC}[7m ${ESC}[27m${ESC}[2mdim${ESC}[22m`)).toBe(
      `${ESC}[7m ${ESC}[27m${ESC}[2mdim${ESC}[22m`,
    );
  });

  it('takes out the 256-colour and RGB forms with their numbers, and bright colours', () => {
    expect(withoutColors(`${ESC}[38;5;214mx${ESC}[48;2;1;2;3;1my${ESC}[95mz`)).toBe(`x${ESC}[1myz`);
  });

  it('leaves text and other sequences alone', () => {
    expect(withoutColors(`plain ${ESC}[2J${ESC}[H text 31m`)).toBe(
      `plain ${ESC}[2J${ESC}[H text 31m`,
    );
  });
});

it('NO_COLOR counts when set and not empty', () => {
  expect(noColorWanted({ NO_COLOR: '1' })).toBe(true);
  expect(noColorWanted({ NO_COLOR: '' })).toBe(false);
  expect(noColorWanted({})).toBe(false);
});
