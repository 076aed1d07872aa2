import { text as readAll } from 'node:stream/consumers';
import type { Message, Task } from '@a2a-js/sdk';
import { parseCommandText, replyErrorOf, sendText } from 'a2a-commands/client';
import { Command } from 'commander';
import { apiKeyOption } from './api-key-option.js';
import type { CliNames } from './chat-command.js';
import { ChatError, connect, DEFAULT_AGENT_URL } from '../connection.js';
import { describeError, isTaskNotFound } from '../errors.js';
import { sanitizeLine } from '../sanitize.js';
import { sendOutcome, sendResultJson } from '../send-result.js';
import { streamSend, type StreamedSend } from '../send-stream.js';

/** The exit code when the reply is a command's refusal: scripts can tell it from a reply (0) and a failure (1). */
export const REFUSED_EXIT_CODE = 2;

/** `send "text"` or `send URL "text"`; `-` for the text reads it from stdin. */
async function argumentsOf(
  first: string | undefined,
  second: string | undefined,
): Promise<{ url: string; text: string }> {
  if (first === undefined) throw new ChatError('nothing to send: give the text to send.');
  const [url, given] = second === undefined ? [DEFAULT_AGENT_URL, first] : [first, second];
  const text = given === '-' ? (await readAll(process.stdin)).replace(/\n$/, '') : given;
  if (text.trim() === '') throw new ChatError('nothing to send: the text is empty.');
  return { url, text };
}

export function sendCommand({ program = 'a2a-chat' }: CliNames = {}): Command {
  const fail = (message: string): void => {
    process.stderr.write(`${program} send: ${message}\n`);
    process.exitCode = 1;
  };
  return new Command('send')
    .description(
      'send one message or command to an A2A agent, print the reply (command reply or answer) and exit',
    )
    .usage('[url] <text> [options]')
    .argument('[url]', `the agent's base URL (default: ${DEFAULT_AGENT_URL})`)
    .argument('[text]', 'the message or /command to send; - reads it from stdin')
    .option('--json', 'print the raw A2A result (SendMessageResponse JSON)')
    .option('--task <id>', 'send to this task instead of starting a new one')
    .addOption(apiKeyOption())
    .action(
      async (
        first: string | undefined,
        second: string | undefined,
        options: { json?: boolean; task?: string; apiKey?: string },
      ) => {
        let result: Task | Message;
        // What streamed out already: the final reply is not printed again.
        let streamed: StreamedSend | undefined;
        try {
          const { url, text } = await argumentsOf(first, second);
          const connection = await connect(url, { apiKey: options.apiKey });
          const parsed = parseCommandText(text);
          const command = parsed && connection.commands.some((c) => c.name === parsed.name);
          try {
            // A command's reply comes whole; an answer streams as the model writes it.
            if (options.json || command) {
              result = await sendText(connection.client, text, { taskId: options.task });
            } else {
              streamed = await streamSend(connection.client, text, {
                taskId: options.task,
                write: (piece) => process.stdout.write(piece),
              });
              result = streamed.result;
            }
          } catch (error) {
            if (options.task && isTaskNotFound(error)) {
              throw new ChatError(
                `Task ${sanitizeLine(options.task)} was not found at ${connection.url}.`,
              );
            }
            throw new ChatError(
              `The agent at ${connection.url} did not take the message: ${describeError(error)}`,
            );
          }
        } catch (error) {
          fail(error instanceof ChatError ? error.message : describeError(error));
          return;
        }
        const outcome = sendOutcome(result);
        if (options.json) process.stdout.write(`${sendResultJson(result)}\n`);
        else if (streamed?.printed) {
          if (!streamed.endsWithNewline) process.stdout.write('\n');
        } else if (outcome.ok && outcome.text !== '') process.stdout.write(`${outcome.text}\n`);
        if (!outcome.ok) {
          fail(outcome.text);
          return;
        }
        // The reply is printed as it is; the code and exit status say it refused (a2a-commands' `{error}` data).
        const refusal = replyErrorOf(result);
        if (refusal) {
          process.stderr.write(
            `${program} send: /${sanitizeLine(outcome.command ?? '')} refused (${refusal.code})\n`,
          );
          process.exitCode = REFUSED_EXIT_CODE;
        }
      },
    );
}
