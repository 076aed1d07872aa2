/**
 * The default log destination writes stdout in batches: what a test (or an
 * operator tailing the log) must still see is every line, soon, and every line
 * when the process exits at once.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const logging = fileURLToPath(new URL('./logging.ts', import.meta.url));

/** Runs `script` in a child process with `createLogger` in scope; resolves with its stdout lines as they come. */
function child(script: string) {
  const process_ = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `import { createLogger } from ${JSON.stringify(logging)};\n${script}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const lines: { entry: Record<string, unknown> }[] = [];
  let buffer = '';
  process_.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const complete = buffer.split('\n');
    buffer = complete.pop()!;
    for (const line of complete) lines.push({ entry: JSON.parse(line) });
  });
  let stderr = '';
  process_.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => process_.on('exit', resolve));
  return { process: process_, lines, exited, stderr: () => stderr };
}

describe('log lines on stdout', () => {
  it('a lone line is written soon, while the process goes on', async () => {
    const running = child(
      `const logger = createLogger('info');
       logger.info({ n: 1 }, 'ready');
       setInterval(() => {}, 1000);`,
    );
    try {
      // The process never exits by itself, so the line cannot be the flush at exit.
      await new Promise<void>((resolve) => {
        const untilALine = () => {
          if (running.lines.length === 0) return;
          running.process.stdout!.off('data', untilALine);
          resolve();
        };
        running.process.stdout!.on('data', untilALine);
      });
      expect(running.process.exitCode).toBeNull();
      expect(running.stderr()).toBe('');
      expect(running.lines.map((line) => line.entry.msg)).toEqual(['ready']);
    } finally {
      running.process.kill('SIGKILL');
      await running.exited;
    }
  });

  it('lines still in the batch are written when the process exits at once', async () => {
    const exiting = child(
      `const logger = createLogger('info');
       for (let n = 0; n < 25; n++) logger.info({ n }, 'line');
       process.exit(0);`,
    );
    expect(await exiting.exited).toBe(0);
    expect(exiting.stderr()).toBe('');
    expect(exiting.lines.map((line) => line.entry.n)).toEqual(
      Array.from({ length: 25 }, (_, n) => n),
    );
  });
});
