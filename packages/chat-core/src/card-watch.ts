import type { AgentCard } from '@a2a-js/sdk';
import { refreshCard } from 'a2a-commands/client';
import { CARD_REFRESH_MS, reconnectDelayMs } from './agent-link.js';

export interface CardWatchOptions {
  /** The agent's base URL: the card is at its well-known path. */
  url: string;
  /** The ETag of the card the client holds, from its first read. */
  etag?: string;
  /** The period between reads while the agent answers; {@link CARD_REFRESH_MS} by default. */
  refreshMs?: number;
  fetch?: typeof fetch;
  /** The card changed (its ETag did): the client decides whether what it shows changed. */
  changed(card: AgentCard): void;
  /** The agent stopped answering (with why), or answers again (undefined). */
  reachable?(error: unknown): void;
}

/**
 * Keeps a client's copy of an agent's card current, the same in every client:
 * the card is read again on a slow timer, conditionally (its ETag, so an
 * unchanged card costs a 304), and on demand; an agent that does not answer
 * is tried again with {@link reconnectDelayMs}. The card is public: no key.
 */
export class CardWatch {
  private etag: string | undefined;
  private failures = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private reading: Promise<void> | undefined;
  private readonly abort = new AbortController();

  constructor(private readonly options: CardWatchOptions) {
    this.etag = options.etag;
  }

  /** Whether the last read could not reach the agent. */
  get offline(): boolean {
    return this.failures > 0;
  }

  start(): void {
    this.schedule();
  }

  /** Reads the card now; a read already under way is shared. */
  check(): Promise<void> {
    this.reading ??= this.read().finally(() => {
      this.reading = undefined;
      this.schedule();
    });
    return this.reading;
  }

  /**
   * Another call could not reach the agent: it is taken as down now (reported
   * once, as a failed read would be), and the card is read at once; the first
   * read that answers reports it back.
   */
  lost(error: unknown): void {
    if (this.abort.signal.aborted) return;
    if (this.failures === 0) {
      this.failures = 1;
      this.options.reachable?.(error);
    }
    void this.check();
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
    this.timer = setTimeout(() => void this.check(), wait);
    // In Node, a watch alone must not keep the process alive.
    (this.timer as { unref?: () => void }).unref?.();
  }

  private async read(): Promise<void> {
    try {
      const read = await refreshCard(this.options.url, {
        etag: this.etag,
        fetch: this.options.fetch,
        signal: this.abort.signal,
      });
      if (this.abort.signal.aborted) return;
      if (this.failures > 0) {
        this.failures = 0;
        this.options.reachable?.(undefined);
      }
      if (!read.changed) return;
      this.etag = read.etag;
      this.options.changed(read.card);
    } catch (error) {
      if (this.abort.signal.aborted) return;
      // Only an agent that does not answer (fetch failed) is an outage; an HTTP error is not.
      if (!(error instanceof TypeError)) return;
      this.failures += 1;
      if (this.failures === 1) this.options.reachable?.(error);
    }
  }
}
