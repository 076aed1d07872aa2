import { Role, type Message } from '@a2a-js/sdk';
import type { HarnessTaskStore } from '../../store/index.js';
import { truncate } from './format.js';

/** A title made from a prompt is at most this many characters (the web chat's rule too). */
export const PROMPT_TITLE_LENGTH = 60;
/** How far into a history the first prompt is looked for; commands may come before it. */
const PROMPT_SCAN = 10;

/** A prompt's first words as a title: one line, whitespace collapsed, cut with `…`. */
export function promptTitle(text: string): string {
  return truncate(text.replace(/\s+/g, ' ').trim(), PROMPT_TITLE_LENGTH);
}

/** A user message that was not a command (the library tags those with `metadata.command`). */
function promptText(message: Message): string | undefined {
  if (message.role !== Role.ROLE_USER) return undefined;
  if (typeof message.metadata?.['command'] === 'string') return undefined;
  const text = message.parts
    .flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : []))
    .join('\n');
  return text.trim() === '' ? undefined : text;
}

/**
 * The title of a task that has none: its first prompt, as the web chat names
 * a chat, so `/tasks` and the page agree. Undefined when the first messages
 * hold no prompt (only commands, or nothing yet).
 */
export async function firstPromptTitle(
  store: Pick<HarnessTaskStore, 'messageAt'>,
  taskId: string,
): Promise<string | undefined> {
  for (let seq = 0; seq < PROMPT_SCAN; seq++) {
    const message = await store.messageAt(taskId, seq);
    if (!message) return undefined;
    const text = promptText(message);
    if (text !== undefined) return promptTitle(text);
  }
  return undefined;
}
