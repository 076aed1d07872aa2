import { CARD_REFRESH_MS, reconnectDelayMs } from 'a2a-chat-core';
import type { CommandSpec } from 'a2a-commands/client';
import { changedCommands, type A2AAgent } from './a2a-agent.js';
import { describeError } from './errors.js';

/**
 * Keeps the bridge's command list current: the card is read again on a slow
 * timer (conditionally, by its ETag, so an unchanged card costs a 304), and
 * on demand before a prompt; a new list goes to `changed`. An agent that does
 * not answer is tried again with the chats' growing delay.
 */
export class CardWatch {
  private timer: NodeJS.Timeout | undefined;
  private failures = 0;
  private reading: Promise<void> | undefined;
  private readonly abort = new AbortController();

  constructor(
    private readonly agent: A2AAgent,
    private readonly changed: (commands: CommandSpec[]) => void,
    private readonly options: { refreshMs?: number; log: (line: string) => void },
  ) {}

  start(): void {
    this.schedule();
  }

  /** Reads the card now (one read at a time). */
  check(): Promise<void> {
    this.reading ??= this.read().finally(() => {
      this.reading = undefined;
      this.schedule();
    });
    return this.reading;
  }

  close(): void {
    this.abort.abort();
    clearTimeout(this.timer);
  }

  private schedule(): void {
    if (this.abort.signal.aborted) return;
    clearTimeout(this.timer);
    const wait =
      this.failures > 0
        ? reconnectDelayMs(this.failures - 1)
        : (this.options.refreshMs ?? CARD_REFRESH_MS);
    this.timer = setTimeout(() => void this.check(), wait);
    this.timer.unref();
  }

  private async read(): Promise<void> {
    try {
      const commands = await changedCommands(this.agent, this.abort.signal);
      this.failures = 0;
      if (commands) this.changed(commands);
    } catch (error) {
      if (this.abort.signal.aborted) return;
      this.failures += 1;
      if (this.failures === 1) this.options.log(`cannot read the card: ${describeError(error)}`);
    }
  }
}
