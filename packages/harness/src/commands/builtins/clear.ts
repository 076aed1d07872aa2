import type { CommandResult } from 'a2a-commands';
import { settingsOf, withSettings } from '../../settings.js';
import { modelContext } from '../../turns/model-context.js';
import { plural, quote } from './format.js';
import type { BuiltinCommand } from './services.js';

/**
 * `/clear`: later turns start from an empty context. Nothing is deleted: the
 * history stays for the record, and the model's context starts after it.
 */
export const clearCommand: BuiltinCommand = (services) => ({
  name: 'clear',
  description: "Start the model's context afresh; the history stays for the record",
  argument_hint: '',
  run: async ({ args, task, updateMetadata, callContext }): Promise<CommandResult> => {
    if (args.trim() !== '') {
      return {
        text: `/clear takes no arguments, so it cannot use ${quote(args, 60)}. Type /clear alone.`,
        data: { error: 'unexpected_arguments' },
      };
    }
    const previous = settingsOf(task.metadata).contextStart ?? 0;
    // A position in the history, not a count: the store reads the context from it.
    const kept = await services.store.historyEnd(task.id);
    // Commands and notes since the last clear are not context: nothing to clear then.
    const since = await services.store.loadHistory(task.id, callContext, { from: previous });
    if (kept === 0 || modelContext(since).length === 0) {
      return {
        text:
          kept === 0
            ? 'Nothing to clear: this task has no messages yet.'
            : "The model's context is already empty; nothing changed.",
        data: { contextStart: previous, kept, cleared: 0 },
      };
    }
    await updateMetadata((metadata) => withSettings(metadata, { contextStart: kept }));
    const running = (await services.turns.busy(task.id))
      ? ' A model turn already running keeps the context it started with.'
      : '';
    return {
      text: `Context cleared. ${plural(kept, 'message')} ${kept === 1 ? 'stays' : 'stay'} in this task's history but ${kept === 1 ? 'is' : 'are'} left out of the model's context from the next turn on.${running}`,
      data: { contextStart: kept, kept, cleared: kept - previous },
    };
  },
});
