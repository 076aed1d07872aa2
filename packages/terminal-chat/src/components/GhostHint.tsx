/** @jsxRuntime automatic */
import { Text } from 'ink';
import type { CommandSpec } from 'a2a-commands/client';
import { argumentHintState } from 'a2a-commands/client';
import { sanitizeLine } from '../sanitize.js';

/**
 * The ghost text after a command name: its `argument_hint`, until arguments
 * are typed. `/model` gives ` [<model>]`, `/model ` gives `[<model>]`.
 */
export function ghostHint(text: string, commands: readonly CommandSpec[]): string {
  const state = argumentHintState(text, commands);
  if (!state || state.args !== '' || state.hint === '') return '';
  const hint = sanitizeLine(state.hint);
  return /\s$/.test(text) ? hint : ` ${hint}`;
}

export function GhostHint({ text, commands }: { text: string; commands: readonly CommandSpec[] }) {
  const hint = ghostHint(text, commands);
  return hint === '' ? null : <Text dimColor>{hint}</Text>;
}
