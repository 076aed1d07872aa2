/**
 * `a2a-chat`, the package's own bin, as a real process (bundled from source
 * once for the run): it offers `chat` and `send`, and its messages name it
 * (the harness names itself `a2a-harness`; packages/harness/test/chat-e2e.test.ts
 * runs that one).
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { bundledBin } from 'a2a-testing/test-bins';

async function a2aChat(
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  const run = promisify(execFile);
  const node = [bundledBin('a2a-chat'), ...args];
  // stdin is not a terminal here: `chat` must say so rather than draw.
  return run(process.execPath, node).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

/** A loopback URL where nothing listens. */
async function closedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

it('offers chat, the default, and send', async () => {
  const help = await a2aChat('--help');
  expect(help.code).toBe(0);
  expect(help.stdout).toMatch(/^Usage: a2a-chat /);
  expect(help.stdout).toMatch(/^ {2}chat \[options\] \[url\]/m);
  expect(help.stdout).toMatch(/^ {2}send \[options\] \[url\] \[text\]/m);
}, 30_000);

it('send: an unreachable agent is exit code 1 and one line naming a2a-chat', async () => {
  const failed = await a2aChat('send', await closedUrl(), 'hi');
  expect(failed.code).toBe(1);
  expect(failed.stderr).toMatch(/^a2a-chat send: Cannot reach an A2A agent/);
}, 30_000);

it('chat without a terminal points to a2a-chat send', async () => {
  const failed = await a2aChat(await closedUrl());
  expect(failed.code).toBe(1);
  expect(failed.stderr).toBe(
    'a2a-chat chat: needs a terminal; in scripts, use `a2a-chat send [url] "text"`.\n',
  );
}, 30_000);
