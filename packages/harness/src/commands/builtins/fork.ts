import type { CommandResult } from 'a2a-commands';
import { settingsOf, withSettings } from '../../settings.js';
import { storedChars } from '../../store/index.js';
import { MAX_TITLE_LENGTH, plural, quote, truncate } from './format.js';
import type { BuiltinCommand } from './services.js';
import { checkTitle } from './title.js';
import { limitWords } from '../../config/limit-words.js';

/** How many characters of the id stand for an untitled parent. */
const ID_PREFIX_LENGTH = 8;

/**
 * `/fork [<title>]`: copies this conversation (its whole history, model, system
 * prompt and context start) into a new task that goes on independently. It works
 * on a task in any state, a finished one included.
 */
export const forkCommand: BuiltinCommand = ({ catalog, store }) => ({
  name: 'fork',
  description: 'Copy this conversation into a new task that goes on independently',
  argument_hint: '[<title>]',
  run: async ({ args, task, createSubtask, callContext }): Promise<CommandResult> => {
    const parent = settingsOf(task.metadata);
    let title: string;
    if (args.trim() === '') {
      const name = parent.title ?? task.id.slice(0, ID_PREFIX_LENGTH);
      title = truncate(`Fork of ${name}`, MAX_TITLE_LENGTH);
    } else {
      const checked = checkTitle(args);
      if (!checked.ok) {
        return {
          text: `${checked.text} No fork was made.`,
          data: { error: 'title_too_long', limit: MAX_TITLE_LENGTH },
        };
      }
      title = checked.title;
    }

    const history = await task.loadHistory();
    // A fork copies the history; the owner's quota bounds the copies.
    const adding = storedChars(history);
    const left = await store.historyQuotaLeft(callContext);
    if (adding > left) {
      return {
        text: limitWords.forkOverQuota(adding, Math.max(0, left)),
        data: { error: 'history_quota', adding, left: Math.max(0, left) },
      };
    }
    // The parent's current model, pinned: the fork keeps it even if the default changes.
    const model = parent.model ?? (await catalog.defaultModelId());
    const fork = await createSubtask({
      history,
      metadata: withSettings(
        {},
        { model, system: parent.system, contextStart: parent.contextStart, title, forkOf: task.id },
      ),
    });
    return {
      text: `Forked this conversation (${plural(history.length, 'message')}) into task ${fork.id} ${quote(title, MAX_TITLE_LENGTH)}, on ${model}. Send messages to that task to go on there; this one is unchanged.`,
      data: { task_ref: fork.id, title, model, messages: history.length },
      task_ref: fork.id,
    };
  },
});
