/**
 * `a2a-harness serve` logs for people on a terminal (pino-pretty) and JSON
 * elsewhere; `--log-format` overrides either way. The terminal is a real
 * pseudo-terminal, made by util-linux `script`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { describe, it } from 'vitest';
import { bundledHarnessCli } from 'a2a-testing/harness-cli';
import { spawnHarness } from 'a2a-testing/process';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const LISTENING = /a2a-harness listening on http:\/\/127\.0\.0\.1:\d+/;

const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;
// eslint-disable-next-line no-control-regex
const withoutColours = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

function serveArgs(extra: string[]): string[] {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-logs-'));
  return [bundledHarnessCli(), 'serve', '--port', '0', '--data', dataDir, ...extra];
}

/**
 * Runs the server, on a pseudo-terminal when `terminal`, until its log says it
 * listens; then stops it with SIGTERM and returns everything it wrote.
 */
async function outputUntilListening(terminal: boolean, extra: string[] = []): Promise<string> {
  const args = serveArgs(extra);
  const child = terminal
    ? spawn('script', ['-qefc', [process.execPath, ...args].map(quote).join(' '), '/dev/null'], {
        cwd: packageDir,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: 'xterm-256color' },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      })
    : spawn(process.execPath, args, {
        cwd: packageDir,
        env: { PATH: process.env.PATH, HOME: process.env.HOME },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
  let output = '';
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no listening line in:\n${output}`)), 30_000);
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (LISTENING.test(withoutColours(output))) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      void exited.then(() => reject(new Error(`exited before listening:\n${output}`)));
    });
  } finally {
    // The whole group: `script` and the server under it.
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
  }
  return withoutColours(output).replace(/\r/g, '');
}

function isJson(line: string): boolean {
  try {
    return typeof JSON.parse(line) === 'object';
  } catch {
    return false;
  }
}

/** The log line that says where the server listens. */
function listeningLine(output: string): string {
  return output.split('\n').find((line) => LISTENING.test(line))!;
}

// Each case starts the CLI on its own data: seconds each on a busy machine, so they run side by side.
describe.concurrent('log format', { timeout: 60_000 }, () => {
  it('on a terminal, lines are pretty: time, level, message, then the fields indented', async ({
    expect,
  }) => {
    const output = await outputUntilListening(true);
    const line = listeningLine(output);
    expect(isJson(line)).toBe(false);
    expect(line).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: a2a-harness listening on http:/);
    expect(output).toMatch(/\n {4}port: \d+\n/);
    expect(output.split('\n').filter((each) => each.startsWith('{'))).toEqual([]);
  });

  it('without a terminal, every line is JSON', async ({ expect }) => {
    const harness = await spawnHarness([
      '--data',
      mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-logs-')),
    ]);
    try {
      const listening = harness.logs.find((entry) => LISTENING.test(String(entry.msg)));
      expect(listening).toMatchObject({ level: 30, service: 'a2a-harness' });
      expect(typeof listening!.port).toBe('number');
    } finally {
      harness.child.kill('SIGTERM');
      await harness.exited;
    }
  });

  it('--log-format json gives JSON on a terminal too', async ({ expect }) => {
    const output = await outputUntilListening(true, ['--log-format', 'json']);
    const line = listeningLine(output);
    expect(JSON.parse(line)).toMatchObject({ level: 30, msg: expect.stringMatching(LISTENING) });
  });

  it('--log-format pretty gives pretty lines without a terminal', async ({ expect }) => {
    const output = await outputUntilListening(false, ['--log-format', 'pretty']);
    const line = listeningLine(output);
    expect(isJson(line)).toBe(false);
    expect(line).toMatch(/INFO: a2a-harness listening on http:/);
  });

  it('refuses a format it does not know', async ({ expect }) => {
    const child = spawn(process.execPath, serveArgs(['--log-format', 'xml']), {
      cwd: packageDir,
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).not.toBe(0);
    expect(stderr).toContain("option '--log-format <format>' argument 'xml' is invalid");
  });
});
