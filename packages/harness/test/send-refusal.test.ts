/**
 * `a2a-harness send` in a script: a command that refuses its argument exits 2,
 * so a script can tell a refusal from a reply (0) and from a
 * failure to send (1). The refusal is the library's `{"error": {code, message}}`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUSED_EXIT_CODE } from 'a2a-terminal-chat';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { runSend as send } from 'a2a-testing/send-cli';

let harness: TestHarness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.stop());

describe('a2a-harness send: exit status of a refusal', () => {
  it('/spawn without its required prompt prints the refusal and exits 2', async () => {
    const { stdout, stderr, code } = await send(harness.url, '/spawn');
    expect(REFUSED_EXIT_CODE).toBe(2);
    expect(code).toBe(2);
    expect(stdout).toBe('/spawn needs an argument: type /spawn <prompt>.\n');
    expect(stderr).toBe('a2a-harness send: /spawn refused (missing-argument)\n');
  });

  it('with --json the result carries the error data, and the exit status is still 2', async () => {
    const { stdout, code } = await send(harness.url, '/spawn', '--json');
    expect(code).toBe(2);
    const parts = JSON.parse(stdout).task.status.message.parts as Array<{ data?: unknown }>;
    expect(parts.find((part) => part.data !== undefined)?.data).toEqual({
      error: {
        code: 'missing-argument',
        message: '/spawn needs an argument: type /spawn <prompt>.',
      },
    });
  });

  it('a reply that does not refuse exits 0', async () => {
    const { stderr, code } = await send(harness.url, '/help spawn');
    expect(code).toBe(0);
    expect(stderr).toBe('');
  });
});
