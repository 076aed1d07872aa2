import type { CommandResult, CommandRun } from 'a2a-commands';
import { settingsOf, withSettings } from '../../settings.js';
import type { CustomCommandDefinition } from './parse-file.js';
import { truncate } from './parse-file.js';
import { expandTemplate, PromptTooLongError } from './template.js';
import { limitWords } from '../../config/limit-words.js';

/** How much of the arguments goes into the sub-task's title. */
const TITLE_ARGS_LENGTH = 60;
/** How much of the prompt the reply quotes. */
const REPLY_PROMPT_LENGTH = 80;
/** How much of the prompt the reply's data part carries: the sub-task holds all of it. */
export const REPLY_DATA_PROMPT_CHARS = 2000;

export interface CustomCommandRunOptions {
  /** limits.textChars: an expanded prompt is a message, and gets the same limit. */
  maxPromptChars?: number;
}

/**
 * The handler of one custom command: expands the template with the arguments and
 * starts a sub-task with the result as its first prompt (SEMANTICS §7). The sub-task
 * gets the parent's current model and system prompt, unless the file names a model.
 * The reply is tagged with the sub-task's id (`task_ref`) and returns at once.
 */
export function customCommandRun(
  definition: CustomCommandDefinition,
  options: CustomCommandRunOptions = {},
): CommandRun {
  const { name } = definition;
  return async (context): Promise<CommandResult> => {
    let prompt: string;
    try {
      prompt = expandTemplate(definition.template, context.args, options.maxPromptChars);
    } catch (error) {
      if (!(error instanceof PromptTooLongError)) throw error;
      return {
        text: limitWords.promptTooLong(name, error.maxChars),
        data: { error: 'prompt_too_long', max_chars: error.maxChars },
      };
    }
    if (prompt.trim() === '') {
      const usage = definition.argument_hint
        ? `: /${name} ${definition.argument_hint}`
        : ' after the command name';
      return {
        text: `/${name} needs arguments, nothing to send otherwise. Type them${usage}`,
        data: { error: 'missing_arguments', argument_hint: definition.argument_hint },
      };
    }

    const parent = settingsOf(context.task.metadata);
    const shortArgs = truncate(context.args.replace(/\s+/g, ' ').trim(), TITLE_ARGS_LENGTH);
    const title = shortArgs ? `/${name} ${shortArgs}` : `/${name}`;
    const subtask = await context.createSubtask({
      prompt,
      metadata: withSettings(
        {},
        { model: definition.model ?? parent.model, system: parent.system, title },
      ),
    });
    const shownPrompt = truncate(prompt, REPLY_DATA_PROMPT_CHARS);
    const quoted = truncate(prompt.replace(/\s+/g, ' ').trim(), REPLY_PROMPT_LENGTH);
    return {
      text: `Started /${name} as sub-task ${subtask.id}: ${quoted}`,
      data: {
        task_ref: subtask.id,
        prompt: shownPrompt,
        ...(shownPrompt !== prompt ? { prompt_truncated: true } : {}),
      },
      task_ref: subtask.id,
    };
  };
}
