import type { CommandResult } from 'a2a-commands';
import { settingsOf, withSettings } from '../../settings.js';
import { charCount, MAX_TITLE_LENGTH, oneLine, quote } from './format.js';
import type { BuiltinCommand } from './services.js';

/** A title on one line, or why it cannot be one. */
export type TitleCheck = { ok: true; title: string } | { ok: false; text: string };

/**
 * Collapses line breaks to spaces and checks the length limit. The refusal
 * quotes the start of the title and names the limit.
 */
export function checkTitle(raw: string): TitleCheck {
  const title = oneLine(raw);
  const length = charCount(title);
  if (length > MAX_TITLE_LENGTH) {
    return {
      ok: false,
      text: `That title is ${length} characters long; the limit is ${MAX_TITLE_LENGTH}. Nothing was changed. It started ${quote(title, 60)}.`,
    };
  }
  return { ok: true, title };
}

/** `/title [<title>]`: shows or sets this task's title (one line, at most 200 characters). */
export const titleCommand: BuiltinCommand = () => ({
  name: 'title',
  description: "Show or set this task's title",
  argument_hint: '[<title>]',
  run: async ({ args, task, updateMetadata }): Promise<CommandResult> => {
    const current = settingsOf(task.metadata).title;
    if (args.trim() === '') {
      return current === undefined
        ? {
            text: 'This task has no title. Set one with /title <title>.',
            data: { title: null },
          }
        : { text: `Title: ${quote(current, MAX_TITLE_LENGTH)}`, data: { title: current } };
    }

    const checked = checkTitle(args);
    if (!checked.ok) {
      return {
        text: checked.text,
        data: { error: 'title_too_long', limit: MAX_TITLE_LENGTH, title: current ?? null },
      };
    }
    await updateMetadata((metadata) => withSettings(metadata, { title: checked.title }));
    return {
      text: `Title set to ${quote(checked.title, MAX_TITLE_LENGTH)}${current === undefined ? '' : ` (was ${quote(current, MAX_TITLE_LENGTH)})`}.`,
      data: { title: checked.title },
    };
  },
});
