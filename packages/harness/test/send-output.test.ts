/**
 * `a2a-harness send` prints what an agent sent to a terminal. Escape
 * sequences in a reply (here the offline model echoing them, and /title
 * quoting them) must arrive as inert text, in plain and in --json output.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { runSend as send } from 'a2a-testing/send-cli';

/* eslint-disable-next-line no-control-regex -- the characters that must not be printed */
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** Named, so that the test titles carry no escape sequence themselves. */
const HOSTILE: [string, string][] = [
  [
    'a message the model echoes',
    'hello \u001b[2J\u001b[H\u001b]0;pwned\u0007 \u202eevil\u202c \u009b31m world',
  ],
  ['a /title the reply quotes', '/title \u001b]0;x\u0007 \u001bP1$r\u001b\\ \u2066title'],
  ['a /model the reply quotes', '/model \u001b[31mred\u001b[0m'],
];

let harness: TestHarness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.stop());

describe('a2a-harness send: the terminal gets no escape sequence from the agent', () => {
  it.each(HOSTILE)('prints the reply to %s as inert text', async (_what, text) => {
    const { stdout, stderr, code } = await send(harness.url, text);
    expect(code).toBe(0);
    expect(stdout.trim()).not.toBe('');
    expect(stdout.replace(/\n/g, '')).not.toMatch(ACTIVE);
    expect(stderr).toBe('');
  });

  it.each(HOSTILE)(
    'prints --json for %s with every such character escaped',
    async (_what, text) => {
      const { stdout, code } = await send(harness.url, text, '--json');
      expect(code).toBe(0);
      expect(stdout.replace(/\n/g, '')).not.toMatch(ACTIVE);
      const printed = JSON.parse(stdout).task.status.message.parts[0].text as string;
      // The JSON still carries what the agent sent, escaped.
      expect(['\u001b', '\u202e', '\u2066'].some((char) => printed.includes(char))).toBe(true);
    },
  );

  it('an error naming a task id of escape sequences names it inertly', async () => {
    const { stdout, stderr, code } = await send(
      harness.url,
      'hi',
      '--task',
      '\u001b[2J\u001b]0;x\u0007',
    );
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/was not found/);
    expect(stderr.replace(/\n/g, '')).not.toMatch(ACTIVE);
  });
});
