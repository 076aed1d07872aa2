/**
 * A refusal reaches a person through a chat in words, not as a config key: a
 * message over the harness's text limit, sent from the terminal chat's
 * controller to a real harness on loopback, shows the limit as a number a
 * person reads, and the chat says the agent refused it (it did answer).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect } from 'a2a-terminal-chat';
import { ChatController, HOME } from 'a2a-terminal-chat/ui';
import { startHarness, type TestHarness } from 'a2a-testing/harness';

let harness: TestHarness;
let controller: ChatController;

beforeAll(async () => {
  harness = await startHarness({ config: { limits: { textChars: 1500 } } });
  controller = new ChatController(await connect(harness.url));
});

afterAll(async () => {
  controller?.close();
  await harness?.stop();
});

const notes = () =>
  controller
    .getState()
    .views[HOME]!.entries.filter((entry) => entry.kind === 'note')
    .map((entry) => (entry.kind === 'note' ? entry.text : ''));

it('a message over the text limit is refused in words, with the number and no config key', async () => {
  expect(controller.submit('x'.repeat(1501))).toBe(true);
  const deadline = Date.now() + 15_000;
  while (notes().length === 0 && Date.now() < deadline) await sleep(25);

  const [note] = notes();
  expect(note).toBe(
    'The agent refused it: The message is too long: messages can be at most 1,500 characters.',
  );
  expect(note).not.toMatch(/limits\.|textChars/);
});
