import type { Message } from '@a2a-js/sdk';

/**
 * Whether a history entry is a command or a command reply: the server tags
 * both with `metadata.command` when it stores them.
 */
export function isCommandExchange(message: Pick<Message, 'metadata'>): boolean {
  return typeof message.metadata?.command === 'string';
}

/**
 * SEMANTICS §3: the history as a model may see it, with every command and
 * command reply left out. An agent's executor builds its model context from this.
 */
export function withoutCommands<T extends Pick<Message, 'metadata'>>(history: readonly T[]): T[] {
  return history.filter((message) => !isCommandExchange(message));
}
