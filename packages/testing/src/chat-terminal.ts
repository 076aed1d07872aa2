import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { bundledHarnessCli } from './harness-cli.js';

/** The a2a-harness package: the terminal opens in its folder. */
const packageDir = path.dirname(createRequire(import.meta.url).resolve('a2a-harness/package.json'));

/** Whether tmux is installed (CI installs it; see .ci/run). */
export function hasTmux(): boolean {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The real CLI, bundled from source by the global setup, as a shell command: `a2a-harness <args>`. */
export function cliCommand(args: string[]): string {
  const quoted = [bundledHarnessCli(), ...args].map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`);
  return `node ${quoted.join(' ')}`;
}

/**
 * A pseudo-terminal in its own tmux server (a socket of its own, so nothing
 * else's sessions are touched), running one command. It stays open after the
 * command ends, showing `[exited N]`, so what was left on screen can be read.
 */
export class TmuxTerminal {
  private socketPath = '';
  /** Where tmux copies the command's output: it grows when the screen may have changed. */
  private outputFile = '';

  private constructor(private readonly socket: string) {}

  static start(command: string, size: { columns: number; rows: number }): TmuxTerminal {
    const terminal = new TmuxTerminal(`a2a-chat-${process.pid}-${Date.now().toString(36)}`);
    terminal.tmux(
      'new-session',
      '-d',
      '-x',
      String(size.columns),
      '-y',
      String(size.rows),
      '-c',
      packageDir,
      `${command}; echo "[exited $?]"; sleep 600`,
    );
    terminal.socketPath = terminal.tmux('display-message', '-p', '#{socket_path}').trim();
    // A copy of the output lets waitFor read the screen only after something was drawn,
    // instead of starting a tmux client every few milliseconds.
    terminal.outputFile = path.join(
      mkdtempSync(path.join(os.tmpdir(), 'a2a-chat-output-')),
      'output',
    );
    writeFileSync(terminal.outputFile, '');
    terminal.tmux('pipe-pane', '-o', `cat >> '${terminal.outputFile}'`);
    return terminal;
  }

  /** Keys by tmux name: `Enter`, `Tab`, `C-c`, `Up`, `PageUp`... */
  keys(...keys: string[]): void {
    this.tmux('send-keys', ...keys);
  }

  /** Text typed literally, one key after another. */
  type(text: string): void {
    this.tmux('send-keys', '-l', text);
  }

  /**
   * Text pasted in one go, as a terminal pastes: LF becomes CR, and the paste is
   * marked (bracketed) when the program asked for that.
   */
  paste(text: string): void {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'a2a-chat-paste-'));
    const file = path.join(dir, 'paste.txt');
    writeFileSync(file, text);
    try {
      this.tmux('load-buffer', file);
      this.tmux('paste-buffer', '-d', '-p');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  resize(columns: number, rows: number): void {
    this.tmux('resize-window', '-x', String(columns), '-y', String(rows));
  }

  /** The screen as text, one line per row. */
  screen(): string {
    return this.tmux('capture-pane', '-p');
  }

  /** The screen with its colours and styles, as SGR escape sequences. */
  screenWithStyles(): string {
    return this.tmux('capture-pane', '-p', '-e');
  }

  /**
   * Reads the screen until `expected` shows (or `check` passes); fails with the
   * screen. It reads again when the command has written more (a resize is drawn
   * by the command too), and at least once a second in case a change came
   * without output. The deadline bounds a hang: on a loaded machine, drawing a
   * long input key by key took the chat over 15 s.
   */
  async waitFor(expected: string | RegExp | ((screen: string) => boolean), timeoutMs = 60_000) {
    const check =
      typeof expected === 'function'
        ? expected
        : (screen: string) =>
            typeof expected === 'string' ? screen.includes(expected) : expected.test(screen);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const written = this.outputSize();
      const screen = this.screen();
      if (check(screen)) return screen;
      if (Date.now() > deadline) {
        throw new Error(`timed out waiting for ${String(expected)}; the screen:\n${screen}`);
      }
      const recheck = Date.now() + 1000;
      while (this.outputSize() === written && Date.now() < recheck) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  }

  /** Everything the command has written to the terminal so far, escape sequences and all. */
  output(): string {
    return readFileSync(this.outputFile, 'utf8');
  }

  /** How many bytes the command has written so far. */
  private outputSize(): number {
    try {
      return statSync(this.outputFile).size;
    } catch {
      return -1;
    }
  }

  /** Ends the tmux server and the command in it, and removes the socket tmux leaves behind. */
  kill(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // Already gone.
    }
    if (this.socketPath) rmSync(this.socketPath, { force: true });
    if (this.outputFile) rmSync(path.dirname(this.outputFile), { recursive: true, force: true });
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });
  }
}
