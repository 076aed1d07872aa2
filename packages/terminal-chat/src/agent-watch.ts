import type { AgentCard } from '@a2a-js/sdk';
import { readCommands, refreshCard, type CommandSpec } from 'a2a-commands/client';
import { readCompletion, type CommandCompletionParams } from 'a2a-commands/client/completion';
import { CARD_REFRESH_MS, reconnectDelayMs } from 'a2a-chat-core';
import { describeError } from './errors.js';

export { CARD_REFRESH_MS, reconnectDelayMs } from 'a2a-chat-core';

/** What the watch tells the chat. */
export interface AgentWatchTarget {
  /** The card's commands changed (a command file added or removed on the agent). */
  commandsChanged(commands: readonly CommandSpec[], completion?: CommandCompletionParams): void;
  /** The agent does not answer (`detail` says how), or answers again (undefined). */
  linkChanged(offline: string | undefined): void;
  /** The agent answers again after an outage: read again what is on screen. */
  reconnected(): void;
}

/**
 * Keeps the terminal chat current with its agent: the card is read again
 * every `refreshMs`, conditionally (its ETag, a 304 when unchanged), so that
 * commands added or removed show without restarting the chat; a read that
 * cannot reach the agent marks it offline and retries with a growing delay,
 * and the first answer after that reconnects. The card is public: no key.
 */
export class AgentWatch {
  private etag: string | undefined;
  private signature: string;
  private failures = 0;
  private timer: NodeJS.Timeout | undefined;
  private reading = false;
  private readonly abort = new AbortController();

  constructor(
    private readonly url: string,
    card: AgentCard,
    private readonly target: AgentWatchTarget,
    private readonly options: {
      refreshMs?: number;
      fetch?: typeof fetch;
      /** The caller's own card, read with the key when the public one changed (SEMANTICS §9). */
      callerCard?: () => Promise<AgentCard>;
    } = {},
  ) {
    this.signature = signatureOf(card);
  }

  /** Whether the agent is taken to be down now. */
  get offline(): boolean {
    return this.failures > 0;
  }

  start(): void {
    this.schedule();
  }

  /** Another call could not reach the agent: check now rather than at the next tick. */
  checkNow(): void {
    void this.read();
  }

  close(): void {
    this.abort.abort();
    clearTimeout(this.timer);
  }

  private schedule(): void {
    if (this.abort.signal.aborted) return;
    clearTimeout(this.timer);
    const wait = this.offline
      ? reconnectDelayMs(this.failures - 1)
      : (this.options.refreshMs ?? CARD_REFRESH_MS);
    this.timer = setTimeout(() => void this.read(), wait);
    this.timer.unref?.();
  }

  private async read(): Promise<void> {
    if (this.reading || this.abort.signal.aborted) return;
    this.reading = true;
    clearTimeout(this.timer);
    try {
      const read = await refreshCard(this.url, {
        etag: this.etag,
        fetch: this.options.fetch,
        signal: this.abort.signal,
      });
      if (this.abort.signal.aborted) return;
      if (read.changed) {
        this.etag = read.etag;
        const card = this.options.callerCard ? await this.options.callerCard() : read.card;
        const signature = signatureOf(card);
        if (signature !== this.signature) {
          this.signature = signature;
          this.target.commandsChanged(readCommands(card), readCompletion(card));
        }
      }
      if (this.failures > 0) {
        this.failures = 0;
        this.target.linkChanged(undefined);
        this.target.reconnected();
      }
    } catch (error) {
      if (this.abort.signal.aborted) return;
      // Only an agent that does not answer (fetch failed) is an outage; an HTTP error is not.
      if (error instanceof TypeError) {
        this.failures += 1;
        if (this.failures === 1) this.target.linkChanged(describeError(error));
      }
    } finally {
      this.reading = false;
      this.schedule();
    }
  }
}

function signatureOf(card: AgentCard): string {
  return JSON.stringify([readCommands(card), readCompletion(card)]);
}
