/** @jsxRuntime automatic */
import type { Task } from '@a2a-js/sdk';
import { render } from 'ink';
import { App } from './components/App.js';
import type { Connection } from './connection.js';
import { AgentWatch } from './agent-watch.js';
import { taskToResume } from './chat-store.js';
import { ChatController } from './controller.js';
import { BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON, filteredInput } from './key-filter.js';
import { colorlessOutput, noColorWanted } from './no-color.js';

/**
 * The alternate screen, as full-screen terminal programs use it: the shell's screen comes back
 * after. While the chat shows, the terminal marks what is pasted (bracketed paste); the shell gets
 * its terminal back unmarked.
 */
const ENTER_SCREEN = `\u001b[?1049h\u001b[H\u001b[2J${BRACKETED_PASTE_ON}`;
const LEAVE_SCREEN = `${BRACKETED_PASTE_OFF}\u001b[?1049l\u001b[?25h`;

/** After Ctrl+Z, when to look whether the chat was stopped at all. */
const CHECK_MS = 300;

/** The terminal the chat runs in: this process's own, unless a test gives another. */
export interface ChatTerminal {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
}

export interface ChatOutcome {
  /** The task on screen when the chat ended, to resume it. */
  taskId?: string;
  /** The terminal hung up (its window closed, its connection dropped): nothing more shows in it. */
  hungUp?: boolean;
}

/** What a write to (or read from) a terminal that is gone fails with. */
const TERMINAL_GONE = new Set(['EIO', 'EPIPE']);

/** Runs the chat in this terminal until the user quits. */
export async function runChat(
  connection: Connection,
  resumed?: Task,
  { stdin, stdout }: ChatTerminal = { stdin: process.stdin, stdout: process.stdout },
): Promise<ChatOutcome> {
  const controller: ChatController = new ChatController(connection, resumed, {
    onUnreachable: () => watch.checkNow(),
  });
  // New commands show without a restart; an outage is shown, retried and recovered from.
  const watch = new AgentWatch(connection.url, connection.card, controller, {
    callerCard: connection.callerCard,
  });
  watch.start();
  const input = filteredInput(stdin);
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    stdout.write(LEAVE_SCREEN);
  };
  // Raw before the first frame. ink turns raw mode on in an effect after it has drawn, and a
  // key typed in that gap is the terminal's: Ctrl+Z stops the process unseen, Enter ends a line.
  input.stream.setRawMode(true);
  stdout.write(ENTER_SCREEN);
  process.once('exit', restore);

  // Ctrl+Z: the shell's screen comes back and the chat stops until `fg` continues it.
  const suspend = () => {
    stdin.setRawMode?.(false);
    stdout.write(LEAVE_SCREEN);
    let back = false;
    const comeBack = (stopped: boolean) => {
      if (back) return;
      back = true;
      clearTimeout(check);
      process.off('SIGCONT', onContinue);
      stdin.setRawMode?.(true);
      stdout.write(ENTER_SCREEN);
      // A new line in the footer also makes ink draw the whole frame on the fresh screen.
      controller.resumed(stopped);
    };
    const onContinue = () => comeBack(true);
    process.once('SIGCONT', onContinue);
    // Where nothing can continue the chat (a process group without job control) the
    // kernel drops the stop signal: the chat is still running a moment later and comes
    // back by itself. After `fg`, a timer that fell due while stopped runs before the
    // SIGCONT handler; setImmediate lets that handler go first.
    const check = setTimeout(() => setImmediate(() => comeBack(false)), CHECK_MS);
    process.kill(process.pid, 'SIGTSTP');
  };
  const app = render(<App controller={controller} onSuspend={suspend} />, {
    stdin: input.stream,
    stdout: noColorWanted() ? colorlessOutput(stdout) : stdout,
    exitOnCtrlC: false,
  });
  const stop = () => app.unmount();
  // A terminal that hangs up fails every write after (EIO), ink's last frame included:
  // the chat ends without drawing, and there is no screen left to give back.
  let hungUp = false;
  const hangUp = () => {
    if (hungUp) return;
    hungUp = true;
    restored = true;
    app.unmount();
  };
  const onTerminalError = (error: NodeJS.ErrnoException) => {
    if (!TERMINAL_GONE.has(error.code ?? '')) throw error;
    hangUp();
  };
  // Left in place after the chat: the failed writes of its last moments report late.
  stdout.on('error', onTerminalError);
  stdin.on('error', onTerminalError);
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];
  for (const signal of signals) process.on(signal, stop);
  process.on('SIGHUP', hangUp);
  try {
    await app.waitUntilExit();
  } finally {
    for (const signal of signals) process.off(signal, stop);
    process.off('SIGHUP', hangUp);
    watch.close();
    controller.close();
    input.close();
    restore();
    process.off('exit', restore);
  }
  return { taskId: taskToResume(controller.getState()), hungUp };
}
