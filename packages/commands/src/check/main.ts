import { parseArgs } from 'node:util';
import { formatReport } from './report.js';
import { checkAgent } from './run-checks.js';

const USAGE = `Usage: a2a-commands check <url> [--json] [--api-key <key>] [--api-key-any-origin]
                          [--no-model] [--subtask-command <text>] [--timeout <seconds>]

Audits an agent that claims the A2A Commands extension v1: prints each check as
passed, failed or skipped, and exits 1 when any check fails.
  <url>                   the agent's base URL (or its card's URL)
  --json                  print the report as JSON
  --api-key <key>         sent as "Authorization: Bearer <key>" (or A2A_API_KEY), to the
                          origin of <url> only
  --api-key-any-origin    also send the key to other origins the card names
  --no-model              skip the checks that need a model turn
  --subtask-command <t>   a command that creates a sub-task (default: fork, when listed)
  --timeout <seconds>     per call (default 30)`;

/** Runs the CLI; returns the exit code. */
export async function main(
  argv: string[],
  out: Pick<NodeJS.WritableStream, 'write'> = process.stdout,
  err: Pick<NodeJS.WritableStream, 'write'> = process.stderr,
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: 'boolean' },
        'api-key': { type: 'string' },
        'api-key-any-origin': { type: 'boolean' },
        'no-model': { type: 'boolean' },
        'subtask-command': { type: 'string' },
        timeout: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    err.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    out.write(`${USAGE}\n`);
    return 0;
  }
  const [subcommand, url, ...rest] = positionals;
  if (subcommand !== 'check' || !url || rest.length > 0) {
    err.write(`${USAGE}\n`);
    return 2;
  }
  const timeout = values.timeout === undefined ? 30 : Number(values.timeout);
  if (!(timeout > 0)) {
    err.write(`--timeout must be a positive number of seconds, got ${values.timeout}\n`);
    return 2;
  }
  try {
    const report = await checkAgent(url, {
      apiKey: values['api-key'] || process.env['A2A_API_KEY'] || undefined,
      apiKeyAnyOrigin: values['api-key-any-origin'] === true,
      noModel: values['no-model'] === true,
      subtaskCommand: values['subtask-command'],
      timeoutMs: timeout * 1000,
    });
    out.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatReport(report)}\n`);
    return report.summary.fail > 0 ? 1 : 0;
  } catch (error) {
    err.write(`a2a-commands check: ${(error as Error).message}\n`);
    return 2;
  }
}
