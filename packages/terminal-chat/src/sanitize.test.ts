import { describe, expect, it } from 'vitest';
import { escapeJson, sanitizeChunk, sanitizeLine, sanitizeText } from './sanitize.js';

const ESC = '\u001b';

/** Whatever is left must not contain a byte a terminal acts on, but LF. */
function assertInert(text: string): void {
  // eslint-disable-next-line no-control-regex
  expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
}

describe('sanitizeText', () => {
  it.each([
    ['colours (SGR)', `${ESC}[31mred${ESC}[0m`, 'red'],
    ['clear screen and cursor moves', `${ESC}[2J${ESC}[H${ESC}[10;20Hx${ESC}[?1049h`, 'x'],
    ['window title (OSC, BEL)', `${ESC}]0;pwned\u0007ok`, 'ok'],
    ['hyperlink (OSC 8, ST)', `${ESC}]8;;http://evil${ESC}\\link${ESC}]8;;${ESC}\\`, 'link'],
    ['device control string', `${ESC}Pq#0;2;0;0;0${ESC}\\after`, 'after'],
    ['an OSC never terminated', `before${ESC}]52;c;c2VjcmV0`, 'before'],
    ['8-bit CSI and OSC', `a\u009b31mb\u009d0;t\u0007c`, 'abc'],
    ['keypad and charset escapes', `${ESC}=${ESC}(0x${ESC}c`, 'x'],
    ['bell, backspace, DEL', 'a\u0007b\u0008c\u007fd', 'abcd'],
    ['bidi overrides', 'abc\u202edcba\u2066x\u2069', 'abcdcbax'],
  ])('removes %s', (_what, input, expected) => {
    const clean = sanitizeText(input);
    expect(clean).toBe(expected);
    assertInert(clean);
  });

  it('keeps line breaks (CR LF, CR, U+2028 become LF) and turns tabs into spaces', () => {
    expect(sanitizeText('a\r\nb\rc\u2028d\te')).toBe('a\nb\nc\nd  e');
    expect(sanitizeText('a\tb', { keepTabs: true })).toBe('a\tb');
  });

  it('keeps ordinary Unicode: accents, CJK, emoji', () => {
    expect(sanitizeText('café 漢字 🎉 — “quotes”')).toBe('café 漢字 🎉 — “quotes”');
  });

  it('sanitizeLine makes one line', () => {
    expect(sanitizeLine(`evil\n${ESC}[2Jname\r\n`)).toBe('evil name ');
  });
});

describe('sanitizeChunk: a stream sanitized as it arrives', () => {
  function stream(chunks: string[]): string {
    let pending = '';
    let text = '';
    for (const chunk of chunks) {
      const next = sanitizeChunk(pending, chunk);
      text += next.text;
      pending = next.pending;
    }
    return text + sanitizeText(pending);
  }

  it('catches an escape sequence split across chunks', () => {
    expect(stream(['red: ', ESC, '[3', '1mRED', `${ESC}[0`, 'm done'])).toBe('red: RED done');
    expect(stream([`${ESC}]0;ti`, 'tle\u0007', 'ok'])).toBe('ok');
  });

  it('holds back a CR so that a CR LF split across chunks is one line break', () => {
    expect(stream(['one\r', '\ntwo'])).toBe('one\ntwo');
  });

  it('gives every complete chunk at once', () => {
    expect(sanitizeChunk('', 'plain words ')).toEqual({ text: 'plain words ', pending: '' });
  });
});

describe('escapeJson', () => {
  it('escapes C1 and bidi characters that JSON.stringify leaves raw, and stays the same JSON', () => {
    const value = { text: 'a\u009b2Jb\u202ec' };
    const json = escapeJson(JSON.stringify(value));
    expect(json).toBe('{"text":"a\\u009b2Jb\\u202ec"}');
    expect(JSON.parse(json)).toEqual(value);
  });
});
