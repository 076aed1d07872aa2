import { CommandError, type CommandResult } from 'a2a-commands';
import { plural, quote } from './format.js';
import type { BuiltinCommand } from './services.js';

export interface StopData {
  /** Whether a turn was running, and is now told to stop. */
  stopped: boolean;
  /** Messages waiting behind it: the next one runs once it has stopped. */
  queued: number;
}

/**
 * `/stop` (SEMANTICS §4): the running turn ends at once, wherever it runs;
 * its answer so far stays in the history, marked stopped, and the task goes
 * on. Unlike CancelTask, which ends the task for good.
 */
export const stopCommand: BuiltinCommand = (services) => ({
  name: 'stop',
  description: 'Stop the answer in progress; the task goes on',
  argument_hint: '',
  run: async ({ args, task }): Promise<CommandResult> => {
    if (args.trim() !== '') {
      throw new CommandError(
        `/stop takes no arguments, so it cannot use ${quote(args, 60)}. Type /stop alone.`,
      );
    }
    const stopped = await services.turns.stop(task.id);
    const queued = await services.turns.queued(task.id);
    const data: StopData = { stopped, queued };
    if (!stopped) {
      return {
        text: 'No answer is in progress on this task, so there is nothing to stop.',
        data,
      };
    }
    const next =
      queued > 0
        ? ` ${plural(queued, 'queued message')} ${queued === 1 ? 'runs' : 'run'} next.`
        : '';
    return {
      text: `Stopped the answer in progress. What the model wrote so far stays in this task's history.${next}`,
      data,
    };
  },
});
