import type { AvailableCommand } from '@agentclientprotocol/sdk';
import type { CommandSpec } from 'a2a-commands/client';

/**
 * The card's commands as ACP lists them (`available_commands_update`): each
 * argument hint that is not empty becomes the input's hint, which the editor
 * shows after the name until something is typed.
 */
export function availableCommands(specs: readonly CommandSpec[]): AvailableCommand[] {
  return specs.map(({ name, description, argument_hint }) =>
    argument_hint.trim() === ''
      ? { name, description }
      : { name, description, input: { hint: argument_hint } },
  );
}
