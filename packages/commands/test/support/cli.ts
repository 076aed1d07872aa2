/** Runs `a2a-commands` as a real process and collects what it printed. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bundledBin } from 'a2a-testing/test-bins';

export const packageDir = fileURLToPath(new URL('../..', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Spawns `command` with `args` in `cwd`; resolves when it exits. */
export function runProcess(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? packageDir,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * The checker's bin, bundled from source for the run, in a Node with a small
 * heap: a body read whole would crash it rather than pass unnoticed.
 */
export function runCheck(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return runProcess(
    process.execPath,
    ['--max-old-space-size=96', bundledBin('a2a-commands'), 'check', ...args],
    { env: { A2A_API_KEY: '', ...env } },
  );
}
