import { TaskState } from '@a2a-js/sdk';
import type { CommandSpec } from 'a2a-commands';

/** The longest title a task may have, in characters. */
export const MAX_TITLE_LENGTH = 200;
/** How much of a prompt a confirmation quotes. */
export const QUOTE_LENGTH = 200;

/** At most `max` code points; the last one is `…` when the text was cut. */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return chars.slice(0, Math.max(0, max - 1)).join('') + '…';
}

/** Length in code points, as a person counts characters. */
export function charCount(text: string): number {
  return Array.from(text).length;
}

/** Every run of whitespace that holds a line break becomes one space; the ends are trimmed. */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

/** A value the user typed, in double quotes, on one line and cut to `max` characters. */
export function quote(value: string, max = 80): string {
  return `"${truncate(oneLine(value), max)}"`;
}

/** Words for a task state that a person reads in a reply. */
export function stateWords(state: TaskState): string {
  switch (state) {
    case TaskState.TASK_STATE_SUBMITTED:
      return 'submitted';
    case TaskState.TASK_STATE_WORKING:
      return 'working';
    case TaskState.TASK_STATE_COMPLETED:
      return 'completed';
    case TaskState.TASK_STATE_FAILED:
      return 'failed';
    case TaskState.TASK_STATE_CANCELED:
      return 'canceled';
    case TaskState.TASK_STATE_INPUT_REQUIRED:
      return 'waiting for input';
    case TaskState.TASK_STATE_REJECTED:
      return 'rejected';
    case TaskState.TASK_STATE_AUTH_REQUIRED:
      return 'waiting for authentication';
    default:
      return 'unknown';
  }
}

/** `1 message`, `3 messages`. */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}

/** `12,345`: token counts are easier to read grouped. */
export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

/** SEMANTICS §2 hints: a `<...>` outside `[...]` is a required argument. */
export function requiresArgument(hint: string): boolean {
  let depth = 0;
  for (const char of hint) {
    if (char === '[') depth++;
    else if (char === ']') depth = Math.max(0, depth - 1);
    else if (char === '<' && depth === 0) return true;
  }
  return false;
}

/** Exactly the three keys the card shows for a command. */
export function specOf(command: CommandSpec): CommandSpec {
  return {
    name: command.name,
    description: command.description,
    argument_hint: command.argument_hint,
  };
}
