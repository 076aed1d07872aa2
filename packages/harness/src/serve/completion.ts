import type { AgentCard } from '@a2a-js/sdk';
import {
  DEFAULT_COMPLETION_PATH,
  withCompletionExtension,
  type CommandRegistry,
} from 'a2a-commands';
import { ArgumentCompletions, type CommandTaskStore } from 'a2a-commands/server';

/** Where the command completion extension's route is served, beside the A2A bindings. */
export const COMPLETE_PATH = DEFAULT_COMPLETION_PATH;

/**
 * The card's completion entry, naming this server's route; it follows the
 * registry, so custom commands' declared choices show as soon as they load.
 */
export function withCompletion(
  publicUrl: string,
  registry: CommandRegistry,
): (card: AgentCard) => AgentCard {
  return (card) =>
    withCompletionExtension(card, registry, { endpoint: `${publicUrl}${COMPLETE_PATH}` });
}

/** The route's logic: task ids are checked against the caller's own tasks. */
export function harnessCompletions(
  registry: CommandRegistry,
  store: Pick<CommandTaskStore, 'loadHead'>,
): ArgumentCompletions {
  return new ArgumentCompletions({ registry, store });
}
