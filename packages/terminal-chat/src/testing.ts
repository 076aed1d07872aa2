/**
 * `a2a-terminal-chat/testing`: fast-check text for property tests (needs
 * fast-check): anything an agent or a client could send, with escape
 * sequences, controls, bidi characters and lone surrogates. The sanitizer's
 * tests use it, and so do the harness's protocol tests.
 */
import fc from 'fast-check';

/** Any UTF-16 unit: lone surrogates, C0 and C1 controls, DEL, NUL included. */
export const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));

/** Pieces a terminal or a parser may act on. */
export const trickyPiece = fc.constantFrom(
  '\u001b[2J', // clear screen
  '\u001b[31m', // red
  '\u001b]0;pwned\u0007', // window title (OSC, BEL)
  '\u001b]8;;http://evil\u001b\\', // hyperlink (OSC, ST)
  '\u001bP1$r\u001b\\', // device control string
  '\u001b', // a lone escape
  '\u009b31m', // 8-bit CSI
  '\u009d0;x\u009c', // 8-bit OSC
  '\u202e', // right-to-left override
  '\u2066', // left-to-right isolate
  '\ud800', // lone high surrogate
  '\udfff', // lone low surrogate
  '\u0000',
  '\u0007',
  '\u0008',
  '\u007f',
  '\u0085',
  '\u2028',
  '\r',
  '\n',
  '\t',
  ' ',
  '"',
  '\\',
  '/',
  '😀',
);

/** Strings made of anything a client could send. */
export function nastyText(maxLength = 40): fc.Arbitrary<string> {
  return fc.string({
    unit: fc.oneof(anyUnit, trickyPiece, fc.string({ unit: 'grapheme', maxLength: 2 })),
    maxLength,
  });
}
