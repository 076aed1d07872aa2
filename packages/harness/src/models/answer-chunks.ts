/** How a turn's streamed deltas are grouped into artifact updates. */
export interface ChunkingOptions {
  /** At most one artifact update per stream this often, in milliseconds (0: one per delta). */
  flushMs: number;
  /** ...unless this many characters wait: then at once. */
  flushChars: number;
}

export const DEFAULT_CHUNKING: ChunkingOptions = { flushMs: 30, flushChars: 4096 };

/**
 * Groups a model's deltas so that a fast model does not cost one event (and
 * one trip through the bus and SSE) per token. The first delta goes out at
 * once, so the first token is not delayed; later ones wait up to `flushMs`.
 */
export class AnswerChunker {
  /** Everything the model wrote so far. */
  text = '';
  private pending = '';
  private sentAny = false;
  private lastFlush = -Infinity;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly emit: (text: string, first: boolean) => void,
    private readonly options: ChunkingOptions = DEFAULT_CHUNKING,
    private readonly now: () => number = () => performance.now(),
  ) {}

  push(delta: string): void {
    if (delta === '') return;
    this.text += delta;
    this.pending += delta;
    const waited = this.now() - this.lastFlush;
    if (this.pending.length >= this.options.flushChars || waited >= this.options.flushMs) {
      this.flush();
    } else {
      this.timer ??= setTimeout(() => this.flush(), this.options.flushMs - waited);
    }
  }

  /** Sends what waits. True when any chunk went out, ever. */
  close(): boolean {
    this.flush();
    return this.sentAny;
  }

  /** The turn was aborted: nothing more goes out. */
  discard(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = '';
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending === '') return;
    const text = this.pending;
    this.pending = '';
    this.lastFlush = this.now();
    const first = !this.sentAny;
    this.sentAny = true;
    this.emit(text, first);
  }
}
