import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { harnessCliMain } from './harness-cli.js';

/** The a2a-harness package: the CLI runs in its folder. */
const packageDir = path.dirname(createRequire(import.meta.url).resolve('a2a-harness/package.json'));

export interface HarnessProcess {
  /** The URL the card names. */
  url: string;
  /** Where it listens: the same as `url` unless `--public-url` was given. */
  listeningUrl: string;
  child: ChildProcess;
  /** Every log line so far, parsed. */
  logs: Record<string, unknown>[];
  /**
   * The first log line, logged already or still to come, that `matches`; it
   * rejects if the process exits first. No deadline of its own: the test's
   * timeout bounds it, so a busy machine only makes it slower.
   */
  logLine(matches: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  exited: Promise<number | null>;
}

type LogWaiter = {
  matches: (line: Record<string, unknown>) => boolean;
  resolve: (line: Record<string, unknown>) => void;
};

/** The real CLI, bundled from source, as a child process: `a2a-harness serve --port 0 ...`. */
export async function spawnHarness(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<HarnessProcess> {
  const child = spawn(process.execPath, [await harnessCliMain(), 'serve', '--port', '0', ...args], {
    cwd: packageDir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return untilListening(child);
}

/** The CLI of a2a-harness as installed in `project`, run with its own bin script. */
export async function spawnInstalledHarness(
  project: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<HarnessProcess> {
  const bin = path.join(project, 'node_modules', 'a2a-harness', 'bin', 'a2a-harness.js');
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', ...args], {
    cwd: project,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return untilListening(child);
}

/** Reads the JSON log lines of a starting harness until the one that says where it listens. */
async function untilListening(child: ChildProcess): Promise<HarnessProcess> {
  const logs: Record<string, unknown>[] = [];
  const waiters = new Set<LogWaiter>();
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  // After the last of stdout has been read, unlike 'exit'.
  const closed = new Promise<number | null>((resolve) =>
    child.on('close', (code) => resolve(code)),
  );
  const { url, listeningUrl } = await new Promise<{ url: string; listeningUrl: string }>(
    (resolve, reject) => {
      let buffer = '';
      const timer = setTimeout(() => reject(new Error(`harness did not start: ${stderr}`)), 90_000);
      child.stdout!.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + 1);
          try {
            const entry = JSON.parse(line) as Record<string, unknown>;
            logs.push(entry);
            for (const waiter of waiters) {
              if (!waiter.matches(entry)) continue;
              waiters.delete(waiter);
              waiter.resolve(entry);
            }
            if (typeof entry.url === 'string' && String(entry.msg).includes('listening')) {
              clearTimeout(timer);
              resolve({ url: entry.url, listeningUrl: `http://127.0.0.1:${String(entry.port)}` });
            }
          } catch {
            // not a log line
          }
        }
      });
      void exited.then((code) => reject(new Error(`harness exited with ${code}: ${stderr}`)));
    },
  );
  const logLine = (matches: LogWaiter['matches']) => {
    const logged = logs.find(matches);
    if (logged) return Promise.resolve(logged);
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      const waiter = { matches, resolve };
      waiters.add(waiter);
      void closed.then((code) => {
        if (!waiters.delete(waiter)) return;
        reject(new Error(`harness exited with ${code} before the log line came: ${stderr}`));
      });
    });
  };
  return { url, listeningUrl, child, logs, logLine, exited };
}

export function writeConfig(dir: string, config: unknown): string {
  const file = path.join(dir, 'harness.json');
  writeFileSync(file, JSON.stringify(config));
  return file;
}
