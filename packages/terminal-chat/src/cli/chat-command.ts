import { Command } from 'commander';
import { apiKeyOption } from './api-key-option.js';
import { ChatError, connect, DEFAULT_AGENT_URL, loadTask } from '../connection.js';
import { sanitizeLine } from '../sanitize.js';
import type { ChatOutcome } from '../run-chat.js';

/** How the chat is run, for its messages: `a2a-chat`, or a program that embeds it, e.g. `a2a-harness`. */
export interface CliNames {
  program?: string;
}

export function chatCommand({ program = 'a2a-chat' }: CliNames = {}): Command {
  const fail = (message: string): void => {
    process.stderr.write(`${program} chat: ${message}\n`);
    process.exitCode = 1;
  };
  return new Command('chat')
    .description('chat with an A2A agent in this terminal, with / completion for its commands')
    .argument('[url]', "the agent's base URL", DEFAULT_AGENT_URL)
    .option('--task <id>', 'resume this task instead of starting a new one')
    .addOption(apiKeyOption())
    .action(async (url: string, options: { task?: string; apiKey?: string }) => {
      if (!process.stdin.isTTY || !process.stdout.isTTY) {
        fail(`needs a terminal; in scripts, use \`${program} send [url] "text"\`.`);
        return;
      }
      let outcome: ChatOutcome;
      let agentUrl: string;
      // ink draws only a last frame when it thinks it runs in CI; this is a terminal.
      delete process.env.CI;
      delete process.env.CONTINUOUS_INTEGRATION;
      // Loaded here so that `send` and `serve` never load React; started now, so that
      // loading ink and React overlaps reading the agent's card.
      const ui = import('../run-chat.js');
      ui.catch(() => undefined);
      try {
        const connection = await connect(url, { apiKey: options.apiKey });
        agentUrl = connection.url;
        const resumed = options.task ? await loadTask(connection, options.task) : undefined;
        const { runChat } = await ui;
        outcome = await runChat(connection, resumed);
      } catch (error) {
        fail(error instanceof ChatError ? error.message : String(error));
        return;
      }
      if (outcome.hungUp) {
        // Nothing can be shown any more, and Node's reset of the terminal as it exits would
        // fail on it (an assertion, and a core dump): the chat ends as a hang-up ends a program.
        process.kill(process.pid, 'SIGHUP');
        return;
      }
      if (outcome.taskId) {
        // The id is the agent's: printed only once it can drive nothing.
        const taskId = sanitizeLine(outcome.taskId);
        process.stdout.write(
          `Task ${taskId}. Resume it with: ${program} chat ${agentUrl} --task ${taskId}\n`,
        );
      }
      // Keep-alive sockets of the agent's connection would hold the process a few seconds more.
      process.exit(process.exitCode ?? 0);
    });
}
