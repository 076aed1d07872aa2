import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  client as acpClient,
  methods,
  ndJsonStream,
  PROTOCOL_VERSION,
  type ClientConnection,
  type SessionNotification,
  type SessionUpdate,
} from '@agentclientprotocol/sdk';
import { bundledBin } from './test-bins.js';

// The bridge's own package: the bridge runs in its folder.
const packageDir = path.dirname(createRequire(import.meta.url).resolve('a2a-acp/package.json'));

/** The bridge as an editor runs it: a child process, spoken to over stdio from the SDK's client side. */
export interface BridgeProcess {
  child: ChildProcess;
  connection: ClientConnection;
  /** Every `session/update` so far, in order. */
  notifications: SessionNotification[];
  /** Every stdout line that was not JSON-RPC: there must be none. */
  strayLines: string[];
  stderr(): string;
  exited: Promise<number | null>;
  close(): Promise<void>;
}

export interface BridgeStart {
  /** Arguments after the URL. */
  args?: string[];
  env?: NodeJS.ProcessEnv;
  /**
   * The command line before the URL, run on plain node: by default `a2a-acp`
   * as the run bundled it (test-bins.ts).
   */
  command?: { cwd: string; argv: string[] };
}

/** `a2a-acp <url> [...args]`, initialized. */
export async function startBridge(
  url: string,
  { args = [], env = {}, command }: BridgeStart = {},
): Promise<BridgeProcess> {
  const { cwd, argv } = command ?? { cwd: packageDir, argv: [bundledBin('a2a-acp')] };
  const child = spawn(process.execPath, [...argv, url, ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const strayLines: string[] = [];
  // Stdout is read line by line here so that a line that is not protocol is seen, not just a parse error.
  const lines = new ReadableStream<Uint8Array>({
    start(controller) {
      let buffer = '';
      const encoder = new TextEncoder();
      child.stdout!.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + 1);
          try {
            const parsed = JSON.parse(line) as { jsonrpc?: unknown };
            if (parsed.jsonrpc !== '2.0') throw new Error('not JSON-RPC');
            controller.enqueue(encoder.encode(`${line}\n`));
          } catch {
            strayLines.push(line);
          }
        }
      });
      child.stdout!.on('end', () => {
        try {
          controller.close();
        } catch {
          // The client closed its side first.
        }
      });
    },
  });
  const input = new WritableStream<Uint8Array>({
    write: (chunk) =>
      new Promise<void>((resolve, reject) =>
        child.stdin!.write(chunk, (error) => (error ? reject(error) : resolve())),
      ),
    close: () => void child.stdin!.end(),
  });
  const notifications: SessionNotification[] = [];
  const connection = acpClient({ name: 'test-editor' })
    .onNotification(methods.client.session.update, ({ params }) => {
      notifications.push(params);
    })
    .connect(ndJsonStream(input, lines));
  await connection.agent.request(methods.agent.initialize, {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities: {},
    clientInfo: { name: 'test-editor', version: '1.0.0' },
  });
  return {
    child,
    connection,
    notifications,
    strayLines,
    stderr: () => stderr,
    exited,
    async close() {
      connection.close();
      child.stdin!.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The updates of one session, from `from` on. */
export function updatesOf(bridge: BridgeProcess, sessionId: string, from = 0): SessionUpdate[] {
  return bridge.notifications
    .slice(from)
    .filter((notification) => notification.sessionId === sessionId)
    .map((notification) => notification.update);
}

/** The text of the agent message chunks among `updates`, joined. */
export function agentText(updates: SessionUpdate[]): string {
  return updates
    .map((update) =>
      update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text'
        ? update.content.text
        : '',
    )
    .join('');
}

/** The names of the last command list sent to `sessionId`, or undefined before any. */
export function commandNames(bridge: BridgeProcess, sessionId: string): string[] | undefined {
  const lists = updatesOf(bridge, sessionId).filter(
    (update) => update.sessionUpdate === 'available_commands_update',
  );
  const last = lists.at(-1);
  return last?.sessionUpdate === 'available_commands_update'
    ? last.availableCommands.map((command) => command.name)
    : undefined;
}

export async function until<T>(
  check: () => T | undefined | false,
  what: string,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A new session in `/tmp`, as an editor opens one. */
export async function newSession(bridge: BridgeProcess): Promise<string> {
  const { sessionId } = await bridge.connection.agent.request(methods.agent.session.new, {
    cwd: '/tmp',
    mcpServers: [],
  });
  return sessionId;
}

/** Sends a text prompt and waits for its end. */
export function prompt(bridge: BridgeProcess, sessionId: string, text: string) {
  return bridge.connection.agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: 'text', text }],
  });
}
