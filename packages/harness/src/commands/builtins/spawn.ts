import type { CommandResult } from 'a2a-commands';
import { settingsOf, withSettings } from '../../settings.js';
import { oneLine, quote, QUOTE_LENGTH } from './format.js';
import type { BuiltinCommand } from './services.js';

/** How much of the prompt goes into the sub-task's title. */
export const SPAWN_TITLE_PROMPT_LENGTH = 40;
const HINT = '<prompt>';

/** `/spawn ` and the first 40 characters of the prompt on one line, `…` when cut. */
export function spawnTitle(prompt: string): string {
  const chars = Array.from(oneLine(prompt));
  const head = chars.slice(0, SPAWN_TITLE_PROMPT_LENGTH).join('');
  return `/spawn ${head}${chars.length > SPAWN_TITLE_PROMPT_LENGTH ? '…' : ''}`;
}

/**
 * `/spawn <prompt>`: runs the prompt on the model in a new sub-task, in the
 * background, with this task's current model and system prompt (SEMANTICS §7).
 * The reply returns at once, tagged with the sub-task's id.
 */
export const spawnCommand: BuiltinCommand = ({ catalog }) => ({
  name: 'spawn',
  description: 'Run a prompt as a sub-task in the background',
  argument_hint: HINT,
  run: async ({ args, task, createSubtask }): Promise<CommandResult> => {
    const prompt = args.trim();
    if (prompt === '') {
      return {
        text: `/spawn needs a prompt to run: type /spawn ${HINT}, for example /spawn write a haiku about tides.`,
        data: { error: 'missing_arguments', argument_hint: HINT },
      };
    }
    const parent = settingsOf(task.metadata);
    const model = parent.model ?? (await catalog.defaultModelId());
    const subtask = await createSubtask({
      prompt,
      metadata: withSettings({}, { model, system: parent.system, title: spawnTitle(prompt) }),
    });
    return {
      text: `Started sub-task ${subtask.id} on ${model}: ${quote(prompt, QUOTE_LENGTH)}. It runs in the background; /tasks and /status show how it goes.`,
      data: { task_ref: subtask.id, model, prompt },
      task_ref: subtask.id,
    };
  },
});
