/**
 * The terminal chat's controller against a real harness process that is killed
 * (kill -9) in the middle of an answer and started again on the same port and
 * data: the chat reconnects by itself, and the part of the answer it showed
 * stays on screen, whatever the restarted agent kept of it.
 */
import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import os from 'node:os';
import { afterAll, expect, it } from 'vitest';
import { connect } from 'a2a-terminal-chat';
import { AgentWatch, ChatController, HOME } from 'a2a-terminal-chat/ui';
import { spawnHarness, writeConfig, type HarnessProcess } from 'a2a-testing/process';

let harness: HarnessProcess | undefined;
let controller: ChatController | undefined;
let watch: AgentWatch | undefined;

afterAll(async () => {
  watch?.close();
  controller?.close();
  harness?.child.kill('SIGKILL');
  await harness?.exited;
});

async function until(check: () => boolean, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(25);
  }
}

it('kill -9 in the middle of an answer, then a restart: the part on screen stays', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'a2a-chat-crash-'));
  // 5 ms a word: the answer below takes seconds, so the kill finds it half written.
  const config = writeConfig(dataDir, { offline: { latencyMs: 5 } });
  const args = ['--data', dataDir, '--config', config];
  harness = await spawnHarness(args);
  const port = new URL(harness.url).port;
  const connection = await connect(harness.url);
  const chat = new ChatController(connection, undefined, {
    onUnreachable: () => watch?.checkNow(),
  });
  controller = chat;
  watch = new AgentWatch(connection.url, connection.card, chat, { refreshMs: 200 });
  watch.start();
  const home = () => chat.getState().views[HOME]!;
  const partial = () => home().entries.findLast((entry) => entry.kind === 'agent')?.text ?? '';

  expect(chat.submit(Array.from({ length: 3000 }, (_, i) => `word${i}`).join(' '))).toBe(true);
  await until(() => home().busy && partial().includes('word30'), 'part of the answer');
  harness.child.kill('SIGKILL');
  await harness.exited;
  const shown = partial().trimEnd();

  harness = await spawnHarness([...args, '--port', port]);
  await until(
    () => home().entries.some((entry) => entry.kind === 'note' && /Reconnected/.test(entry.text)),
    'the reconnection note',
  );
  await until(() => !home().busy, 'the view to settle');
  expect(home().entries.some((entry) => entry.text.includes(shown))).toBe(true);
}, 120_000);
