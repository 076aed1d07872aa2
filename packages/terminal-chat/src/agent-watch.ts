import type { AgentCard } from '@a2a-js/sdk';
import { readCommands, type CommandSpec } from 'a2a-commands/client';
import { readCompletion, type CommandCompletionParams } from 'a2a-commands/client/completion';
import { CardWatch } from 'a2a-chat-core';
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
 * Keeps the terminal chat current with its agent. When and how the card is
 * read again (its ETag, the backoff while the agent is down) is a2a-chat-core's
 * `CardWatch`, as in every client; this adds what the terminal makes of it:
 * the commands when they changed, and the link's state in the top line.
 */
export class AgentWatch {
  private signature: string;
  private readonly cards: CardWatch;

  constructor(
    url: string,
    card: AgentCard,
    target: AgentWatchTarget,
    options: {
      refreshMs?: number;
      fetch?: typeof fetch;
      /** The caller's own card, read with the key when the public one changed (SEMANTICS §9). */
      callerCard?: () => Promise<AgentCard>;
    } = {},
  ) {
    this.signature = signatureOf(card);
    this.cards = new CardWatch({
      url,
      refreshMs: options.refreshMs,
      fetch: options.fetch,
      changed: (next) => {
        const caller = options.callerCard;
        if (!caller) return this.adopt(next, target);
        // Until the caller's card is read, the public one would show commands they may not run.
        caller().then(
          (card) => this.adopt(card, target),
          (error: unknown) => {
            if (error instanceof TypeError) target.linkChanged(describeError(error));
          },
        );
      },
      reachable: (error) => {
        if (error !== undefined) {
          target.linkChanged(describeError(error));
          return;
        }
        target.linkChanged(undefined);
        target.reconnected();
      },
    });
  }

  /** Whether the agent is taken to be down now. */
  get offline(): boolean {
    return this.cards.offline;
  }

  start(): void {
    this.cards.start();
  }

  /** Another call could not reach the agent: check now rather than at the next tick. */
  checkNow(): void {
    void this.cards.check();
  }

  close(): void {
    this.cards.close();
  }

  private adopt(card: AgentCard, target: AgentWatchTarget): void {
    const signature = signatureOf(card);
    if (signature === this.signature) return;
    this.signature = signature;
    target.commandsChanged(readCommands(card), readCompletion(card));
  }
}

function signatureOf(card: AgentCard): string {
  return JSON.stringify([readCommands(card), readCompletion(card)]);
}
