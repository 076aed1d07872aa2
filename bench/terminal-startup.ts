/**
 * The terminal chat's start-up, side by side with its floor, in one run:
 *
 * - chat: from spawning `a2a-chat <url>` in a pseudo-terminal (util-linux
 *   `script`) to the first screen that shows the agent's name, and the same
 *   for `a2a-harness chat <url>`, the way the docs start it;
 * - floor: from spawning `node` to the end of a process that imports ink and
 *   React and nothing else.
 *
 * Both include Node's own start. The rounds alternate, so load on the machine
 * falls on both alike. Prints each figure's median and the ratio, and for each
 * chat whether it meets the target, a ratio of 2 or less. Runs the built
 * packages: `npm run build` first.
 *
 *   node --conditions=a2a-source --import tsx bench/terminal-startup.ts [rounds]
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { repoRoot } from './lib/servers.js';

const AGENT_NAME = 'Start-up bench agent';
const CHATS = {
  'a2a-chat': ['packages/terminal-chat/bin/a2a-chat.js'],
  'a2a-harness chat': ['packages/harness/bin/a2a-harness.js', 'chat'],
} as const;
const BUILT = ['packages/terminal-chat/dist/cli/main.js', 'packages/harness/dist/cli/main.js'];
const TIMEOUT_MS = 60_000;
/** The target: each chat's start-up at most this many times the floor. */
const TARGET_RATIO = 2;

/** An agent that only serves its card, with a few commands: all the chat reads before it draws. */
async function startCardServer(): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    if (request.url !== '/.well-known/agent-card.json') {
      response.statusCode = 404;
      response.end();
      return;
    }
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    response.setHeader('content-type', 'application/json');
    response.end(
      JSON.stringify({
        name: AGENT_NAME,
        description: 'Serves its card',
        version: '1',
        supportedInterfaces: [
          { url: `${url}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        ],
        capabilities: {
          streaming: true,
          extensions: [
            {
              uri: 'https://madarauchiha-314.github.io/tiny-harness/a2a/ext/commands/v1',
              required: false,
              params: {
                commands: [
                  { name: 'help', description: 'List the commands', argument_hint: '[<command>]' },
                  { name: 'model', description: 'Show or choose the model', argument_hint: '' },
                ],
              },
            },
          ],
        },
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['text/plain'],
        skills: [],
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Milliseconds from spawning `command` until `done(output)` holds (then it is killed) or it exits. */
function timeProcess(
  command: string,
  args: string[],
  done?: (output: string) => boolean,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, {
      cwd: repoRoot,
      env: { ...process.env, TERM: 'xterm-256color', CI: '' },
      stdio: ['pipe', 'pipe', 'inherit'],
      detached: true,
    });
    let output = '';
    let finished = false;
    const finish = (error?: Error) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      const elapsed = performance.now() - started;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
      if (error) reject(error);
      else resolve(elapsed);
    };
    const timer = setTimeout(
      () => finish(new Error(`${args.join(' ')}: nothing after ${TIMEOUT_MS} ms:\n${output}`)),
      TIMEOUT_MS,
    );
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (done?.(output)) finish();
    });
    child.on('exit', (code) => {
      if (done) finish(new Error(`exited ${code} before drawing:\n${output}`));
      else if (code === 0) finish();
      else finish(new Error(`exited ${code}`));
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function main(): Promise<void> {
  const missing = BUILT.filter((file) => !existsSync(path.join(repoRoot, file)));
  if (missing.length > 0) {
    throw new Error(`${missing.join(', ')} missing: run \`npm run build\` first.`);
  }
  const rounds = Number(process.argv[2] ?? 5);
  const agent = await startCardServer();
  const floor: number[] = [];
  const chats = new Map<string, number[]>(Object.keys(CHATS).map((name) => [name, []]));
  try {
    for (let round = 0; round < rounds; round++) {
      floor.push(
        await timeProcess(process.execPath, [
          '--input-type=module',
          '-e',
          "await import('ink'); await import('react');",
        ]),
      );
      const line = [`round ${round + 1}/${rounds}: ink and React ${floor.at(-1)!.toFixed(0)} ms`];
      for (const [name, args] of Object.entries(CHATS)) {
        // `script` gives the chat a pseudo-terminal, as a person's terminal would.
        const command = [process.execPath, ...args, agent.url].join(' ');
        const elapsed = await timeProcess('script', ['-qfec', command, '/dev/null'], (output) =>
          output.includes(AGENT_NAME),
        );
        chats.get(name)!.push(elapsed);
        line.push(`${name} ${elapsed.toFixed(0)} ms`);
      }
      process.stderr.write(`${line.join(', ')}\n`);
    }
  } finally {
    agent.server.close();
  }
  const floorMs = median(floor);
  const result = {
    rounds,
    inkAndReactMs: Math.round(floorMs),
    chats: Object.fromEntries(
      [...chats].map(([name, times]) => {
        const ratio = median(times) / floorMs;
        return [name, { ms: Math.round(median(times)), ratio: Number(ratio.toFixed(2)) }];
      }),
    ),
    target: `ratio <= ${TARGET_RATIO}`,
  };
  for (const [name, { ms, ratio }] of Object.entries(result.chats)) {
    const verdict = ratio <= TARGET_RATIO ? 'pass' : 'fail';
    process.stdout.write(
      `${name}: ${ms} ms, ${ratio} × ink and React (${result.inkAndReactMs} ms) (target ≤ ${TARGET_RATIO}) — ${verdict}\n`,
    );
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

await main();
