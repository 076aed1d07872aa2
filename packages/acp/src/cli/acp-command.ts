import { Readable, Writable } from 'node:stream';
import { Command, InvalidArgumentError, Option } from 'commander';

/** How the bridge is run, for its messages: `a2a-acp`, or a program that embeds it, e.g. `a2a-harness`. */
export interface AcpCliNames {
  program?: string;
  /** The URL when none is given; without one the URL is required. */
  defaultUrl?: string;
}

function milliseconds(flag: string): (value: string) => number {
  return (value) => {
    const ms = Number(value);
    if (!Number.isFinite(ms) || ms <= 0) {
      throw new InvalidArgumentError(`${flag} wants a positive number of milliseconds.`);
    }
    return ms;
  };
}

/**
 * `acp <url>`: an ACP agent on stdin and stdout for an editor, fronting the
 * A2A agent at `url`. Stdout carries only the protocol; the bridge's own
 * words go to stderr, which editors keep as the agent's log.
 */
export function acpCommand({ program = 'a2a-acp', defaultUrl }: AcpCliNames = {}): Command {
  const command = new Command('acp')
    .description(
      'serve an A2A agent to an editor over the Agent Client Protocol (stdio), with its slash commands',
    )
    .addOption(
      new Option('--api-key <key>', "the agent's API key, sent only if its card asks for one").env(
        'A2A_API_KEY',
      ),
    )
    .addOption(
      new Option(
        '--card-refresh <ms>',
        'how often the card is read again for new commands (default: 12000)',
      ).argParser(milliseconds('--card-refresh')),
    )
    .addOption(
      new Option(
        '--give-up-after <ms>',
        'how long the agent may stay unreachable mid-answer (default: 30000)',
      ).argParser(milliseconds('--give-up-after')),
    );
  if (defaultUrl) command.argument('[url]', "the A2A agent's base URL", defaultUrl);
  else command.argument('<url>', "the A2A agent's base URL");
  return command.action(
    async (url: string, flags: { apiKey?: string; cardRefresh?: number; giveUpAfter?: number }) => {
      // A dependency that logs with console.log must not break the protocol on stdout.
      console.log = console.info = console.debug = console.warn = console.error;
      // Loaded here so that a program embedding this command (a2a-harness) loads ACP only to run it.
      const { startBridge } = await import('../bridge.js');
      const connection = startBridge({
        agentUrl: url,
        apiKey: flags.apiKey,
        cardRefreshMs: flags.cardRefresh,
        giveUpAfterMs: flags.giveUpAfter,
        input: Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
        output: Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
        log: (line) => process.stderr.write(`${program}: ${line}\n`),
      });
      await connection.closed;
      // Keep-alive sockets to the agent would hold the process a few seconds more.
      process.exit(0);
    },
  );
}
