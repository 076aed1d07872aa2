import type { CommandResult } from 'a2a-commands';
import { settingsOf, withSettings } from '../../settings.js';
import { charCount, quote, QUOTE_LENGTH } from './format.js';
import type { BuiltinCommand } from './services.js';

/** How much of the prompt `/system` shows when asked for it. */
const SHOW_LENGTH = 1000;
const CLEAR_FLAG = '--clear';

/**
 * `/system [<prompt> | --clear]`: shows, sets or removes the system prompt of
 * this task. A change applies from the next model call.
 */
export const systemCommand: BuiltinCommand = () => ({
  name: 'system',
  description: "Show or set this task's system prompt (--clear removes it)",
  argument_hint: '[<prompt> | --clear]',
  run: async ({ args, task, updateMetadata }): Promise<CommandResult> => {
    const current = settingsOf(task.metadata).system;
    const prompt = args.trim();

    if (prompt === '') {
      if (current === undefined) {
        return {
          text: 'This task has no system prompt. Set one with /system <prompt>.',
          data: { system: null },
        };
      }
      const length = charCount(current);
      const cut = length > SHOW_LENGTH ? ` (first ${SHOW_LENGTH} of ${length} characters)` : '';
      return {
        text: `System prompt${cut}:\n${quote(current, SHOW_LENGTH)}`,
        data: { system: current },
      };
    }

    if (prompt === CLEAR_FLAG) {
      if (current === undefined) {
        return {
          text: 'This task has no system prompt; nothing to clear.',
          data: { system: null },
        };
      }
      await updateMetadata((metadata) => withSettings(metadata, { system: undefined }));
      return {
        text: 'System prompt removed. It applies from the next model call.',
        data: { system: null },
      };
    }

    if (/^--[a-z-]*$/i.test(prompt)) {
      return {
        text: `Unknown option ${quote(prompt)}. Use /system --clear to remove the system prompt, or /system <prompt> to set one.`,
        data: { error: 'unknown_option', option: prompt },
      };
    }

    await updateMetadata((metadata) => withSettings(metadata, { system: prompt }));
    return {
      text: `System prompt ${current === undefined ? 'set' : 'replaced'}: ${quote(prompt, QUOTE_LENGTH)}. It applies from the next model call.`,
      data: { system: prompt },
    };
  },
});
