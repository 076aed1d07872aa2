import type { AgentCard } from '@a2a-js/sdk';
import {
  DEFAULT_COMPLETION_PATH,
  withCompletionExtension,
  type CommandRegistry,
  type CommandView,
} from 'a2a-commands';
import { ArgumentCompletions, type CommandTaskStore } from 'a2a-commands/server';

/** Where the command completion extension's route is served, beside the A2A bindings. */
export const COMPLETE_PATH = DEFAULT_COMPLETION_PATH;

/**
 * The card's completion entry, naming this server's route; it follows the
 * registry, so custom commands' declared choices show as soon as they load.
 * It lists the arguments of the commands the card lists: the public card's,
 * or one caller's (SEMANTICS §9).
 */
export function withCompletion(
  publicUrl: string,
): (card: AgentCard, commands: CommandView) => AgentCard {
  return (card, commands) =>
    withCompletionExtension(card, commands, { endpoint: `${publicUrl}${COMPLETE_PATH}` });
}

/** The route's logic: task ids are checked against the caller's own tasks. */
export function harnessCompletions(
  registry: CommandRegistry,
  store: Pick<CommandTaskStore, 'loadHead'>,
): ArgumentCompletions {
  return new ArgumentCompletions({ registry, store });
}
