import { Console } from 'node:console';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { expect, it } from 'vitest';
import type { ChatTerminal } from './run-chat.js';
import { FakeAgent } from './test-agent.js';

// ink draws only its last frame when it thinks it runs in CI, and reads that as it loads:
// the chat's command clears these before loading it, and so does this file.
delete process.env.CI;
delete process.env.CONTINUOUS_INTEGRATION;
const { runChat } = await import('./run-chat.js');

/** A terminal that notes, in order, each change of mode and each write. */
function recordingTerminal() {
  const events: string[] = [];
  let screen = '';
  const stdin = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode(mode: boolean) {
      events.push(`raw ${mode}`);
      return stdin;
    },
    ref: () => stdin,
    unref: () => stdin,
  });
  const stdout = Object.assign(new EventEmitter(), {
    isTTY: true,
    columns: 90,
    rows: 24,
    write(text: string) {
      events.push('write');
      screen += text;
      return true;
    },
  });
  const terminal = { stdin, stdout } as unknown as ChatTerminal;
  return { terminal, events, stdin, screen: () => screen };
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

// ink routes console output above its frame with a Console of its own; vitest's console has no constructor.
Object.assign(console, { Console });

it('puts the terminal in raw mode before it draws: a key typed at the first frame is a key, not a line or a signal', async () => {
  const { terminal, events, stdin, screen } = recordingTerminal();
  const chat = runChat(new FakeAgent().connection(), undefined, terminal);
  await until(() => screen().includes('Connected to Fake agent'), 'the first frame');

  expect(events.indexOf('raw true')).toBeGreaterThanOrEqual(0);
  expect(events.indexOf('raw true')).toBeLessThan(events.indexOf('write'));

  // Two Ctrl+C quit; the terminal is left as it was found.
  stdin.write('\u0003');
  await until(() => screen().includes('Press Ctrl+C again to quit.'), 'the quit prompt');
  stdin.write('\u0003');
  await chat;
  expect(events.filter((event) => event.startsWith('raw')).at(-1)).toBe('raw false');
});

it('keys typed before the first frame are kept, each a key of its own: a draft, then two Ctrl+C, quit', async () => {
  const { terminal, stdin } = recordingTerminal();
  const chat = runChat(new FakeAgent().connection(), undefined, terminal);
  stdin.write('a draft');
  stdin.write('\u0003');
  stdin.write('\u0003');
  await chat;
});

it('a terminal that hangs up ends the chat, which says so and leaves the screen alone', async () => {
  const { terminal, screen } = recordingTerminal();
  const chat = runChat(new FakeAgent().connection(), undefined, terminal);
  await until(() => screen().includes('Connected to Fake agent'), 'the first frame');
  const drawn = screen().length;

  // As Node reports a write to a terminal that has hung up.
  terminal.stdout.emit('error', Object.assign(new Error('write EIO'), { code: 'EIO' }));
  const outcome = await chat;

  expect(outcome.hungUp).toBe(true);
  // No screen to give back: the shell's screen is not asked for on a terminal that is gone.
  expect(screen().slice(drawn)).not.toContain('\u001b[?1049l');
});
