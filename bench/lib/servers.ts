import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtEntry } from './built-servers.js';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcess {
  name: string;
  url: string;
  child: ChildProcess;
  /** Resident memory of the server process, in MiB. */
  rssMiB(): number;
  stop(): Promise<void>;
}

/**
 * Starts a TypeScript entry point, built (built-servers.ts), as its own
 * process, so that servers and the load generator do not share a CPU's event
 * loop. It must log a JSON line with `url`.
 */
export async function startServer(
  name: string,
  entry: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  nodeArgs: string[] = [],
): Promise<ServerProcess> {
  const main = await builtEntry(path.join(repoRoot, entry));
  const child = spawn(process.execPath, [...nodeArgs, main, ...args], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error(`${name} did not start: ${stderr}`)), 60_000);
    const readLines = (chunk: Buffer) => {
      buffer += chunk.toString();
      for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n')) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        try {
          const entry = JSON.parse(line) as { url?: unknown };
          if (typeof entry.url === 'string') {
            clearTimeout(timer);
            // Later lines (a log line a request) are drained unread: parsing them
            // would load the machine the servers are measured on.
            child.stdout!.off('data', readLines);
            child.stdout!.resume();
            resolve(entry.url);
            return;
          }
        } catch {
          // not a JSON line
        }
      }
    };
    child.stdout!.on('data', readLines);
    void exited.then(() => reject(new Error(`${name} exited: ${stderr}`)));
  });
  return {
    name,
    url,
    child,
    rssMiB: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
      return kib / 1024;
    },
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
