/**
 * The terminal chat keeps up with its agent: a custom command file
 * dropped in shows in its command list without a restart; the agent stopping
 * is shown as an outage, and when it starts again on the same port and
 * database the chat reconnects by itself and goes on in the same task. The
 * chat's controller and AgentWatch against a real harness on loopback.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { render } from 'ink-testing-library';
import { createElement } from 'react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Connection } from 'a2a-terminal-chat';
import { AgentWatch, ChatController, Header, HOME, reconnectDelayMs } from 'a2a-terminal-chat/ui';
import { startHarness, type TestHarness } from 'a2a-testing/harness';

let harness: TestHarness;
let connection: Connection;
let controller: ChatController;
let watch: AgentWatch;

const start = (port?: number, dataDir?: string) =>
  startHarness({ port, dataDir, config: { offline: { latencyMs: 5 } } });

beforeAll(async () => {
  harness = await start();
  connection = await connect(harness.url);
  controller = new ChatController(connection, undefined, {
    onUnreachable: () => watch.checkNow(),
  });
  watch = new AgentWatch(connection.url, connection.card, controller, { refreshMs: 200 });
  watch.start();
});

afterAll(async () => {
  watch?.close();
  controller?.close();
  await harness?.stop();
});

async function until(check: () => boolean, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline)
      throw new Error(
        `Timed out waiting for ${what}: ${JSON.stringify(controller.getState().views)}`,
      );
    await sleep(25);
  }
}

const home = () => controller.getState().views[HOME]!;
const answers = () => home().entries.filter((entry) => entry.kind === 'agent' && !entry.preview);
const names = () => controller.getState().commands.map((command) => command.name);

describe('AgentWatch', () => {
  it('retries an agent that is down after 0.5, 1, 2, 4, then 8 s each time', () => {
    expect([0, 1, 2, 3, 4, 9].map(reconnectDelayMs)).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
  });

  it('a custom command file dropped in shows in the command list, and goes when removed', async () => {
    expect(names()).not.toContain('standup');
    const file = path.join(harness.dataDir, 'commands', 'standup.md');
    writeFileSync(
      file,
      '---\ndescription: Summarise my day\n---\n\nSummarise my day: $ARGUMENTS\n',
    );
    try {
      await until(() => names().includes('standup'), '/standup in the list');
      expect(controller.isCommand('/standup today')).toBe(true);
    } finally {
      rmSync(file);
    }
    await until(() => !names().includes('standup'), '/standup to go');
    expect(controller.isCommand('/standup today')).toBe(false);
  });

  it('the agent restarting: the chat shows the outage, reconnects by itself, and goes on in the same task', async () => {
    expect(controller.submit('before the outage')).toBe(true);
    await until(() => answers().length === 1 && !home().busy, 'the first answer');
    const taskId = home().taskId;
    expect(taskId).toBeDefined();

    const port = Number(new URL(harness.url).port);
    const { dataDir } = harness;
    await harness.stop();
    // The next card read fails: the chat says the agent does not answer.
    await until(() => controller.getState().offline !== undefined, 'the outage to show');
    const header = render(
      createElement(Header, {
        agentName: 'a2a-harness',
        url: harness.url,
        view: home(),
        width: 120,
        offline: controller.getState().offline,
      }),
    );
    expect(header.lastFrame()).toContain('reconnecting');
    header.unmount();

    harness = await start(port, dataDir);
    await until(() => controller.getState().offline === undefined, 'the chat to reconnect');
    await until(
      () => home().entries.some((entry) => entry.kind === 'note' && /Reconnected/.test(entry.text)),
      'the reconnection note',
    );
    expect(controller.submit('after the outage')).toBe(true);
    await until(() => answers().length === 2 && !home().busy, 'the answer after the outage');
    expect(home().taskId).toBe(taskId);
  }, 60_000);
});
