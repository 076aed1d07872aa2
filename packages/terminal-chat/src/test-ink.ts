import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { render as inkRender } from 'ink';
import { render } from 'ink-testing-library';
import type { ReactElement } from 'react';
import { filteredInput } from './key-filter.js';

/** Keys as a terminal sends them. */
export const KEYS = {
  up: '\u001b[A',
  down: '\u001b[B',
  left: '\u001b[D',
  right: '\u001b[C',
  enter: '\r',
  tab: '\t',
  escape: '\u001b',
  backspace: '\u007f',
  ctrlC: '\u0003',
  ctrlT: '\u0014',
  pageUp: '\u001b[5~',
  pageDown: '\u001b[6~',
} as const;

/** A rendered app, as ink-testing-library gives it and {@link renderThroughKeyFilter} too. */
export interface Rendered {
  lastFrame(): string | undefined;
  stdin: { write(data: string): unknown };
  stdout: EventEmitter;
  unmount(): void;
}

/** What ink-testing-library's stdout does: keeps the last frame; 100 columns until resized. */
class FrameStdout extends EventEmitter {
  columns = 100;
  private last: string | undefined;
  write = (frame: string) => {
    this.last = frame;
    return true;
  };
  lastFrame = () => this.last;
}

/**
 * Renders `element` reading keys as the chat does, through the key filter,
 * from a fake terminal whose every `stdin.write` is one read. Resolves `exited`
 * when the app exits by itself.
 */
export async function renderThroughKeyFilter(
  element: ReactElement,
): Promise<Rendered & { exited: Promise<unknown> }> {
  const terminal = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode: () => undefined,
    ref: () => undefined,
    unref: () => undefined,
  });
  const input = filteredInput(terminal as unknown as NodeJS.ReadStream);
  const stdout = new FrameStdout();
  const instance = inkRender(element, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stdin: input.stream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  const exited = instance.waitUntilExit().finally(() => input.close());
  await settle();
  return {
    lastFrame: stdout.lastFrame,
    stdin: { write: (data: string) => terminal.write(data) },
    stdout,
    unmount: () => instance.unmount(),
    exited,
  };
}

/** Renders `element` and waits for its first frame and input handlers. */
export async function renderInk(element: ReactElement): Promise<Rendered> {
  const app = render(element);
  await settle();
  return app;
}

/** Gives the test terminal another size, as a resized terminal would, and waits for the redraw. */
export async function resize(app: Rendered, columns: number, rows: number): Promise<void> {
  Object.defineProperties(app.stdout, {
    columns: { value: columns, configurable: true },
    rows: { value: rows, configurable: true },
  });
  app.stdout.emit('resize');
  await settle();
}

/**
 * Turns of the event loop that {@link settle} waits. Each step from a key to a
 * frame (the key filter's queue, ink's read and its pending Esc, React's
 * scheduler) is a hop through `setImmediate` or a microtask; a keystroke takes
 * a handful, this leaves a wide margin and still costs next to nothing.
 */
const EVENT_LOOP_TURNS = 100;

/**
 * Lets ink read input, React commit and ink draw: waits `ms` (for work that
 * waits on a timer), then for the event loop to turn over. A wait for a time
 * alone is not enough on a busy machine: after a stall, an expired timer runs
 * before the immediates that read the key and draw the frame.
 */
export async function settle(ms = 0): Promise<void> {
  if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
  for (let turn = 0; turn < EVENT_LOOP_TURNS; turn++) {
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Writes each chunk as one read from the terminal, settling after each. */
export async function press(app: Rendered, ...chunks: string[]): Promise<void> {
  for (const chunk of chunks) {
    app.stdin.write(chunk);
    await settle();
  }
}

/** The last frame, with colours and styles removed. */
export function frame(app: Rendered): string {
  // eslint-disable-next-line no-control-regex
  return (app.lastFrame() ?? '').replace(/\u001b\[[0-9;]*m/g, '');
}

/**
 * Polls until the frame satisfies `check`, or fails with the frame. The limit
 * only ends a test that is failing anyway, so it leaves room for a busy machine.
 */
export async function waitForFrame(
  app: Rendered,
  check: (text: string) => boolean,
  timeoutMs = 10_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = frame(app);
    if (check(text)) return text;
    if (Date.now() > deadline) throw new Error(`frame never matched:\n${text}`);
    await settle(20);
  }
}
