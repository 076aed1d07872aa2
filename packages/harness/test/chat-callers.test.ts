/**
 * SEMANTICS §9 in the terminal chat: with a key, it offers exactly the
 * caller's commands (their extended card), in its `/` menu and after the card
 * changes. The real CLI in tmux, and the chat's controller with AgentWatch,
 * against a harness with a custom command for one principal only.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'a2a-terminal-chat';
import { AgentWatch, ChatController } from 'a2a-terminal-chat/ui';
import { cliCommand, hasTmux, TmuxTerminal } from 'a2a-testing/chat-terminal';
import { waitFor } from 'a2a-testing/http';
import { startTwoPrincipalHarness, type TwoPrincipalHarness } from 'a2a-testing/two-principals';

let harness: TwoPrincipalHarness;
let terminal: TmuxTerminal | undefined;

beforeAll(async () => {
  harness = await startTwoPrincipalHarness();
});
afterAll(() => harness?.stop());
afterEach(() => terminal?.kill());

describe('the connection and its watch', () => {
  it("each principal's chat lists its own commands", async () => {
    const alice = await connect(harness.url, { apiKey: harness.keys.alice });
    const bob = await connect(harness.url, { apiKey: harness.keys.bob });
    expect(alice.commands.map((c) => c.name)).toContain('deploy');
    expect(bob.commands.map((c) => c.name)).not.toContain('deploy');
    expect(bob.commands.map((c) => c.name)).toContain('help');
  });

  it("a command file added later shows beside the caller's own, which stay", async () => {
    const connection = await connect(harness.url, { apiKey: harness.keys.alice });
    const controller = new ChatController(connection);
    const watch = new AgentWatch(connection.url, connection.card, controller, {
      refreshMs: 200,
      callerCard: connection.callerCard,
    });
    watch.start();
    try {
      harness.addCommand('notes', 'Notes');
      const names = () => controller.getState().commands.map((c) => c.name);
      await waitFor(async () => names().includes('notes') || undefined, 'the new command');
      expect(names()).toContain('deploy');
    } finally {
      watch.close();
      controller.close();
    }
  });
});

describe('the menu', () => {
  it('has tmux to drive the chat (.ci/run installs it)', () => {
    expect(hasTmux(), 'tmux is not installed: apt-get install -y tmux').toBe(true);
  });

  it('offers /deploy to the principal who may run it, and not to the other', async () => {
    terminal = TmuxTerminal.start(
      cliCommand(['chat', harness.url, '--api-key', harness.keys.alice]),
      {
        columns: 100,
        rows: 30,
      },
    );
    await terminal.waitFor('Connected to a2a-harness', 60_000);
    terminal.type('/dep');
    await terminal.waitFor('Deploy a service');
    terminal.kill();

    terminal = TmuxTerminal.start(
      cliCommand(['chat', harness.url, '--api-key', harness.keys.bob]),
      {
        columns: 100,
        rows: 30,
      },
    );
    await terminal.waitFor('Connected to a2a-harness', 60_000);
    terminal.type('/he');
    await terminal.waitFor('List the commands');
    terminal.keys('C-u');
    await terminal.waitFor('›  Type a message');
    terminal.type('/dep');
    await sleep(1000);
    expect(terminal.screen()).not.toContain('Deploy a service');
  }, 180_000);
});
