import type { AgentCard, AgentExtension } from '@a2a-js/sdk';
import type { CommandView } from '../caller-commands.js';
import { commandsIn } from '../card.js';
import type { RegisteredCommand } from '../command.js';
import type { CommandRegistry } from '../registry.js';
import {
  COMMAND_COMPLETION_EXTENSION_URI,
  DEFAULT_MAX_VALUES,
  type ArgumentSpec,
  type CommandArguments,
  type CommandCompletionParams,
} from './spec.js';

const DESCRIPTION =
  'Values for the arguments of slash commands: fixed choices, and a route to ask.';

export interface CompletionCardOptions {
  /** The absolute URL of the completion route. */
  endpoint: string;
  maxValues?: number;
}

/** A command's arguments as the card lists them: choices copied, completers become `dynamic`. */
function argumentsOf(command: RegisteredCommand): CommandArguments | undefined {
  if (!command.arguments || command.arguments.length === 0) return undefined;
  const args = command.arguments.map(({ name, description, choices, complete }) => {
    const spec: ArgumentSpec = { name };
    if (description !== undefined) spec.description = description;
    if (choices !== undefined) spec.choices = choices.map((choice) => ({ ...choice }));
    if (complete !== undefined) spec.dynamic = true;
    return spec;
  });
  return { name: command.name, arguments: args };
}

/**
 * The completion extension's card entry, from the registry's public commands
 * or one caller's view (commands without arguments left out).
 */
export function completionExtension(
  registry: CommandRegistry | CommandView,
  options: CompletionCardOptions,
): AgentExtension {
  const commands = commandsIn(registry)
    .list()
    .flatMap((command) => argumentsOf(command) ?? []);
  const params: CommandCompletionParams = {
    endpoint: options.endpoint,
    max_values: options.maxValues ?? DEFAULT_MAX_VALUES,
    commands,
  };
  return {
    uri: COMMAND_COMPLETION_EXTENSION_URI,
    description: DESCRIPTION,
    required: false,
    params: params as unknown as AgentExtension['params'],
  };
}

/** A copy of `card` with the completion entry added, or replaced, after the others. */
export function withCompletionExtension(
  card: AgentCard,
  registry: CommandRegistry | CommandView,
  options: CompletionCardOptions,
): AgentCard {
  const capabilities = card.capabilities ?? { extensions: [] };
  const others = (capabilities.extensions ?? []).filter(
    (ext) => ext.uri !== COMMAND_COMPLETION_EXTENSION_URI,
  );
  return {
    ...card,
    capabilities: {
      ...capabilities,
      extensions: [...others, completionExtension(registry, options)],
    },
  };
}
