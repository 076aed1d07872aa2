/**
 * The terminal chat and `send`, end to end: the real CLI against a running
 * harness (and against an agent without the commands extension). `send` runs
 * in-process through its commander command, and once as a real process; the
 * chat runs as a real process in a tmux pseudo-terminal, driven by keys.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startPlainAgent, type PlainAgent } from 'a2a-testing/plain-agent';
import { cliCommand, hasTmux, TmuxTerminal } from 'a2a-testing/chat-terminal';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { runSend as send } from 'a2a-testing/send-cli';
import { waitFor } from 'a2a-testing/http';

let harness: TestHarness;
let plain: PlainAgent;
let closedUrl: string;

beforeAll(async () => {
  // 20 ms a word: a turn lasts long enough to be canceled.
  harness = await startHarness({ config: { offline: { latencyMs: 20 } } });
  plain = await startPlainAgent();
  closedUrl = await unusedUrl();
});
afterAll(async () => {
  await plain?.close();
  await harness?.stop();
});

/** Runs `use` on a harness of its own whose model answers at `wordMs` a word, then stops it. */
async function onHarnessAnswering(wordMs: number, use: (url: string) => Promise<void>) {
  const own = await startHarness({ config: { offline: { latencyMs: wordMs } } });
  try {
    await use(own.url);
  } finally {
    await own.stop();
  }
}

/** A loopback URL where nothing listens. */
async function unusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

describe('a2a-harness send', () => {
  it("prints the model's answer and exits 0", async () => {
    const { stdout, stderr, code } = await send(harness.url, 'hello from a script');
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^This is the offline model.*You said: hello from a script\n$/);
  });

  it('prints a command reply', async () => {
    const { stdout, code } = await send(harness.url, '/model');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Model: offline\/echo/);
    expect(stdout).toContain('Choose one with /model <provider>/<model>.');
  });

  it('--json prints the raw A2A result, the reply tagged', async () => {
    const { stdout, code } = await send(harness.url, '/model', '--json');
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.task.status.message.metadata).toEqual({ command: 'model' });
    expect(result.task.status.message.parts[1].data.current).toBe('offline/echo');
  });

  it('--task continues a task', async () => {
    const first = JSON.parse((await send(harness.url, 'one', '--json')).stdout);
    const { stdout, code } = await send(harness.url, 'two', '--task', first.task.id);
    expect(code).toBe(0);
    // The offline model counts what it was given: both messages.
    expect(stdout).toContain('I got 3 messages');
  });

  it('an unknown task exits 1 and says so', async () => {
    const { stdout, stderr, code } = await send(harness.url, 'hi', '--task', 'no-such-task');
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(`a2a-harness send: Task no-such-task was not found at ${harness.url}.\n`);
  });

  it('an unreachable agent exits 1 and says so', async () => {
    const { stderr, code } = await send(closedUrl, 'hi');
    expect(code).toBe(1);
    expect(stderr).toMatch(
      new RegExp(`^a2a-harness send: Cannot reach an A2A agent at ${closedUrl}: .*ECONNREFUSED`),
    );
  });

  it('an agent without the extension: /help is an ordinary message', async () => {
    const { stdout, code } = await send(plain.url, '/help');
    expect(code).toBe(0);
    expect(stdout).toBe('You said: /help\n');
  });

  it('as a real process, streams the answer: it arrives in pieces, as the model writes it', async () => {
    const prompt = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const child = spawn('sh', ['-c', cliCommand(['send', harness.url, prompt])]);
    const pieces: string[] = [];
    child.stdout.on('data', (chunk: Buffer) => pieces.push(chunk.toString()));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(pieces.join('')).toMatch(
      new RegExp(`^This is the offline model.*You said: ${prompt}\\n$`),
    );
    // SendMessage would print the whole answer in one write, at the end.
    expect(pieces.length).toBeGreaterThan(5);
  }, 60_000);

  it('as a real process: exit codes 0 and 1', async () => {
    const run = promisify(execFile);
    const cli = cliCommand(['send', harness.url, '/help']);
    const ok = await run('sh', ['-c', cli]);
    expect(ok.stdout).toMatch(/^Commands:\n\/help/);
    const failed = await run('sh', ['-c', cliCommand(['send', closedUrl, 'hi'])]).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toContain('Cannot reach an A2A agent');
  }, 60_000);
});

describe('a2a-harness chat in a terminal', () => {
  it('has tmux to drive the chat (.ci/run installs it)', () => {
    expect(hasTmux(), 'tmux is not installed: apt-get install -y tmux').toBe(true);
  });

  let terminal: TmuxTerminal | undefined;
  afterEach(() => terminal?.kill());

  /** The chat's own rows: header first, footer last (tmux adds the empty cursor row). */
  const footer = (screen: string) => screen.trimEnd().split('\n').at(-1) ?? '';

  it('completes /mo, shows the hint, sends, shows the tagged reply, follows a sub-task link; Ctrl+Z with no job control says so', async () => {
    terminal = TmuxTerminal.start(cliCommand(['chat', harness.url]), { columns: 100, rows: 30 });
    await terminal.waitFor('Connected to a2a-harness', 60_000);
    expect(terminal.screen().split('\n')[0]).toMatch(/^◆ a2a-harness · http:\/\/127\.0\.0\.1:\d+/);
    // Screens for docs/terminal-chat.txt, written when A2A_CHAT_CAPTURE names the file.
    const captures: Array<[string, string]> = [];

    terminal.type('hello');
    terminal.keys('Enter');
    await terminal.waitFor('You said: hello');
    // 1. `/mo` offers /model.
    terminal.type('/mo');
    captures.push([
      '`/mo` typed',
      await terminal.waitFor(/❯ \/model\s+Show or choose this task's model/),
    ]);
    // 2. Tab takes it and the hint shows.
    terminal.keys('Tab');
    captures.push(['Tab: the hint', await terminal.waitFor('› /model  [<model>]')]);
    // 3. An argument, Enter.
    terminal.type('offline/echo');
    terminal.keys('Enter');
    // 4. The reply, tagged with the command.
    await terminal.waitFor('┃ /model · command reply');
    expect(terminal.screen()).toMatch(/┃ (Model set to|The model is already) offline\/echo/);
    // `/model` alone: its models become a list that has the keys until Esc.
    terminal.type('/model');
    terminal.keys('Enter');
    captures.push([
      '`/model`: a list to pick from',
      await terminal.waitFor('↑↓ choose · Enter pick'),
    ]);
    terminal.keys('Escape');
    await terminal.waitFor((s) => footer(s).startsWith('Enter send'));

    // A required argument left out: nothing is sent, and the chat says what is missing.
    terminal.type('/spawn');
    terminal.keys('Enter');
    await terminal.waitFor('/spawn needs <prompt>: type it after the name');
    // 5. /spawn with a prompt, then the sub-task link.
    terminal.type('write a haiku about tides');
    terminal.keys('Enter');
    captures.push([
      '`/spawn`: a sub-task link',
      await terminal.waitFor(/↳ sub-task [0-9a-f-]{36} · Ctrl\+T opens it/),
    ]);
    terminal.keys('C-t');
    const sub = await terminal.waitFor(
      (s) => s.includes('sub-task view') && s.includes('You said: write a haiku about tides'),
    );
    captures.push(['Ctrl+T: the sub-task', sub]);
    expect(footer(sub)).toContain('Ctrl+T back to main');
    terminal.keys('C-t');
    await terminal.waitFor((s) => !s.includes('sub-task view') && s.includes('Started sub-task'));

    const file = process.env.A2A_CHAT_CAPTURE;
    if (file) {
      const screens = captures.map(
        ([what, screen]) => `── ${what} ${'─'.repeat(90 - what.length)}\n\n${screen.trimEnd()}\n`,
      );
      writeFileSync(path.resolve(file), screens.join('\n'));
    }

    // Ctrl+Z where nothing can suspend the chat: run as the terminal's own command, the
    // chat's process group has no shell to continue it. It says so and goes on.
    terminal.keys('C-z');
    await terminal.waitFor(
      (s) => s.includes('◆ a2a-harness') && s.includes('Ctrl+Z cannot suspend the chat here'),
    );
    terminal.type('still here');
    terminal.keys('Enter');
    await terminal.waitFor('You said: still here');

    // Two Ctrl+C quit; the shell's screen comes back with one line to resume from.
    terminal.keys('C-c');
    await terminal.waitFor('Press Ctrl+C again to quit.');
    terminal.keys('C-c');
    const after = (await terminal.waitFor('[exited 0]')).trim().split('\n');
    expect(after[0]).toMatch(/^Task [0-9a-f-]{36}\. Resume it with: a2a-harness chat/);
    expect(after.at(-1)).toBe('[exited 0]');
  }, 120_000);

  /** The task id the header shows (its first 8 characters). */
  const headerTask = (screen: string) => /· task ([0-9a-f]{8}) ·/.exec(screen.split('\n')[0]!)?.[1];

  it('Ctrl+C stops the answer with /stop and the chat goes on in the same task; resize and paste do not break it', async () => {
    // 250 ms a word: the answer streams for about 15 s, so on a loaded machine the
    // Ctrl+C still lands while it runs (at 20 ms a word it once arrived after the end).
    await onHarnessAnswering(250, stopAnAnswer);
  }, 120_000);

  async function stopAnAnswer(url: string) {
    terminal = TmuxTerminal.start(cliCommand(['chat', url]), { columns: 90, rows: 24 });
    await terminal.waitFor('Connected to a2a-harness', 60_000);
    terminal.type(`tell me everything ${'and more '.repeat(20)}`);
    terminal.keys('Enter');
    const running = await terminal.waitFor(
      (s) => s.includes('working') && s.includes('This is the offline') && !!headerTask(s),
    );
    const taskId = headerTask(running);
    terminal.keys('C-c');
    // The answer so far stays, marked stopped; the task is not canceled nor forked.
    const stopped = await terminal.waitFor(
      (s) => s.includes('[stopped]') && !s.includes('working'),
    );
    expect(stopped).not.toMatch(/CancelTask|canceled|a copy of this conversation/);
    expect(headerTask(stopped)).toBe(taskId);

    // Resizing redraws at the new size.
    terminal.resize(60, 16);
    await terminal.waitFor((s) => footer(s).startsWith('Enter send') && s.startsWith('◆'));
    terminal.resize(110, 30);
    await terminal.waitFor((s) => footer(s).startsWith('Enter send · / commands'));

    // A paste arrives whole, line breaks and escape sequences and all: nothing is sent.
    terminal.paste('first line\nsecond \u001b[31mred\u001b[0m line');
    await terminal.waitFor('› first line\n  second red line');
    terminal.keys('Enter');
    // The same task answers: its history holds the first message, the stopped answer and this one.
    const answered = await terminal.waitFor('I got 3 messages');
    expect(headerTask(answered)).toBe(taskId);
    expect(answered).not.toContain('[exited');
  }

  it('a pasted line waits for Enter, line break and all; the terminal is asked to mark pastes only while the chat shows', async () => {
    terminal = TmuxTerminal.start(cliCommand(['chat', harness.url]), { columns: 100, rows: 24 });
    await terminal.waitFor('Connected to a2a-harness', 60_000);
    terminal.paste('pasted from the clipboard\n');
    await terminal.waitFor('› pasted from the clipboard');
    // Still in the input, its line break too: Backspace takes that back, typing goes on.
    terminal.keys('BSpace');
    terminal.type(' and typed');
    terminal.keys('Enter');
    await terminal.waitFor('You said: pasted from the clipboard and typed');
    terminal.keys('C-d');
    await terminal.waitFor('[exited');
    // Asked for, and turned off again as the chat ends: the shell gets its terminal back as it was.
    const output = terminal.output();
    const lastOn = output.lastIndexOf('\u001b[?2004h');
    expect(lastOn).toBeGreaterThanOrEqual(0);
    expect(output.lastIndexOf('\u001b[?2004l')).toBeGreaterThan(lastOn);
  }, 120_000);

  it('Ctrl+T into a running sub-task shows its whole answer so far, not only the tail', async () => {
    // 100 ms a word: the sub-task streams for about 17 s, so on a loaded machine the view
    // still opens while it runs (at 20 ms a word the window was 3 s).
    await onHarnessAnswering(100, joinASubTask);
  }, 120_000);

  async function joinASubTask(url: string) {
    terminal = TmuxTerminal.start(cliCommand(['chat', url]), { columns: 200, rows: 50 });
    await terminal.waitFor('Connected to a2a-harness', 60_000);
    const numbers = Array.from({ length: 150 }, (_, i) => i + 1);
    terminal.type(`/spawn count ${numbers.join(' ')}`);
    terminal.keys('Enter');
    await terminal.waitFor(/↳ sub-task [0-9a-f-]{36} · Ctrl\+T opens it/);
    terminal.keys('C-t');
    /** The numbers the sub-task's answer shows so far, in order. */
    const answered = (screen: string) => {
      const flat = screen.split('\n').join(' ');
      const at = flat.indexOf('You said: count');
      if (at === -1) return [];
      const answer = flat.slice(at + 'You said: count'.length);
      return [...answer.matchAll(/\b(\d+)\b/g)].map((m) => Number(m[1]));
    };
    // Joined mid-answer: the start of the answer is there while it still streams, with no gap.
    const streaming = await terminal.waitFor(
      (s) => s.includes('sub-task view') && s.includes('▍') && answered(s).length > 0,
    );
    expect(streaming).toContain('This is the offline model');
    const soFar = answered(streaming);
    expect(soFar).toEqual(numbers.slice(0, soFar.length));
    const done = await terminal.waitFor(
      (s) => s.includes('sub-task view') && answered(s).length === 150 && !s.includes('▍'),
    );
    expect(answered(done)).toEqual(numbers);
    expect(done.match(/This is the offline model/g)).toHaveLength(1);
  }

  it('Ctrl+Z hands the terminal back to the shell; fg brings the chat back, drawn and taking keys', async () => {
    // An interactive shell with job control, as a person runs the chat.
    terminal = TmuxTerminal.start('bash --norc --noprofile -i', { columns: 90, rows: 24 });
    terminal.type(cliCommand(['chat', harness.url]));
    terminal.keys('Enter');
    await terminal.waitFor('Connected to a2a-harness', 60_000);
    terminal.keys('C-z');
    await terminal.waitFor((s) => /Stopped/.test(s) && !s.includes('◆ a2a-harness'));
    terminal.type('fg');
    terminal.keys('Enter');
    await terminal.waitFor(
      (s) => s.includes('◆ a2a-harness') && s.includes('Back from the background.'),
    );
    terminal.type('hello again');
    terminal.keys('Enter');
    await terminal.waitFor('You said: hello again');
  }, 120_000);

  it('a terminal that hangs up ends the chat as a hang-up ends any program: no crash, no core dump', async () => {
    const status = path.join(mkdtempSync(path.join(os.tmpdir(), 'a2a-chat-hang-up-')), 'status');
    // The shell ignores the hang-up to record how the chat ended; the chat, as any Node
    // program, starts with the default disposition whatever its parent ignores.
    const chat = cliCommand(['chat', harness.url]);
    terminal = TmuxTerminal.start(`sh -c "trap '' HUP; ${chat}; echo \\$? > '${status}'"`, {
      columns: 90,
      rows: 24,
    });
    await terminal.waitFor('Connected to a2a-harness', 60_000);
    terminal.type('hello before the hang-up');
    terminal.keys('Enter');
    await terminal.waitFor('This is the offline model');
    // The window closes: the terminal hangs up under the chat while it draws.
    terminal.kill();
    await waitFor(
      async () => existsSync(status) || undefined,
      'the shell to record how the chat ended',
      1200,
    );
    // 128 + SIGHUP, as the shell reports a program ended by the hang-up itself. An error
    // thrown at the dead terminal was 1; Node's failed reset of it, a core dump (134, 139).
    expect(readFileSync(status, 'utf8').trim()).toBe('129');
  }, 120_000);

  it('NO_COLOR: no colours on screen; bold and the inverse cursor stay', async () => {
    terminal = TmuxTerminal.start(`NO_COLOR=1 ${cliCommand(['chat', harness.url])}`, {
      columns: 90,
      rows: 24,
    });
    await terminal.waitFor('Connected to a2a-harness', 60_000);
    const sgr = new RegExp(`${String.fromCharCode(27)}\\[([0-9;]*)m`, 'g');
    const styles = [...terminal.screenWithStyles().matchAll(sgr)].flatMap((match) =>
      match[1]!.split(';').map(Number),
    );
    const colours = styles.filter(
      (code) => (code >= 30 && code <= 38) || (code >= 40 && code <= 48) || code >= 90,
    );
    expect(colours).toEqual([]);
    expect(styles).toContain(1);
    expect(styles).toContain(7);
  }, 120_000);

  it('an agent without the extension: plain chat, no completion, no errors', async () => {
    terminal = TmuxTerminal.start(cliCommand(['chat', plain.url]), { columns: 90, rows: 20 });
    await terminal.waitFor('Connected to Plain echo agent. Type a message.', 60_000);
    expect(footer(terminal.screen())).not.toContain('/ commands');
    terminal.type('/help');
    await terminal.waitFor('› /help');
    expect(terminal.screen()).not.toContain('❯');
    terminal.keys('Enter');
    await terminal.waitFor('You said: /help');
    expect(terminal.screen()).not.toMatch(/error|did not answer/i);
  }, 120_000);
});
