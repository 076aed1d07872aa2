import { TaskState, taskStateToJSON, type Task } from '@a2a-js/sdk';
import { SUBTASK_METADATA_KEY, type CommandResult, type SubtaskLinks } from 'a2a-commands';
import { taskTree } from 'a2a-chat-core';
import { settingsOf } from '../../settings.js';
import { plural, stateWords, truncate } from './format.js';
import { firstPromptTitle } from './prompt-title.js';
import type { BuiltinCommand } from './services.js';

/** Tasks asked for per page (the protocol's maximum). */
export const TASKS_PAGE_SIZE = 100;
/** Pages `/tasks` reads at most, so one reply stays cheap. */
export const MAX_TASK_PAGES = 10;
const UNTITLED = '(untitled)';

export interface TaskEntry {
  id: string;
  title: string;
  /** Wire name, e.g. `TASK_STATE_WORKING`. */
  state: string;
  /** True for the task `/tasks` was sent to. */
  current: boolean;
  /** The task it was spawned or forked from (SEMANTICS §7); absent for a task that started on its own. */
  parent?: string;
  /** True for a copy made by `/fork`, which goes on independently of its parent. */
  fork?: true;
}

/** The task `task` was spawned or forked from, by the library's sub-task link. */
function parentOf(metadata: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const links = metadata?.[SUBTASK_METADATA_KEY] as SubtaskLinks | undefined;
  return typeof links?.parent === 'string' && links.parent !== '' ? links.parent : undefined;
}

/**
 * `/tasks`: the tasks in this conversation (context), newest activity first in
 * the data, each with the task it came from; the text shows them as a tree,
 * sub-tasks and forks under their parent. `*` marks this one.
 */
export const tasksCommand: BuiltinCommand = ({ store }) => ({
  name: 'tasks',
  description: 'List the tasks in this conversation',
  argument_hint: '',
  run: async ({ task, callContext }): Promise<CommandResult> => {
    const found: Task[] = [];
    let pageToken = '';
    let more = false;
    for (let page = 0; page < MAX_TASK_PAGES; page++) {
      const response = await store.list(
        {
          tenant: callContext.tenant ?? '',
          contextId: task.contextId,
          status: TaskState.TASK_STATE_UNSPECIFIED,
          pageToken,
          pageSize: TASKS_PAGE_SIZE,
          historyLength: 0,
          statusTimestampAfter: undefined,
          includeArtifacts: false,
        },
        callContext,
      );
      found.push(...response.tasks);
      pageToken = response.nextPageToken;
      more = pageToken !== '';
      if (!more) break;
    }

    const seen = new Set<string>();
    const rows: Array<TaskEntry & { words: string }> = [];
    for (const listed of found) {
      if (seen.has(listed.id)) continue;
      seen.add(listed.id);
      const state = listed.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
      const settings = settingsOf(listed.metadata);
      rows.push({
        id: listed.id,
        // Named as the web chat names it: the title, else the first prompt.
        title: settings.title ?? (await firstPromptTitle(store, listed.id)) ?? UNTITLED,
        state: taskStateToJSON(state),
        current: listed.id === task.id,
        ...optional('parent', parentOf(listed.metadata)),
        ...(settings.forkOf !== undefined ? { fork: true as const } : {}),
        words: stateWords(state),
      });
    }

    const tasks: TaskEntry[] = rows.map(({ words: _words, ...entry }) => entry);
    return { text: render(rows, more), data: { tasks } };
  },
});

function render(rows: Array<TaskEntry & { words: string }>, more: boolean): string {
  if (rows.length === 0) return 'No tasks in this conversation yet.';
  const idWidth = Math.max(...rows.map((row) => row.id.length));
  const stateWidth = Math.max(...rows.map((row) => row.words.length));
  const lines = [`Tasks in this conversation (${plural(rows.length, 'task')}; * is this one):`];
  for (const row of taskTree(rows)) {
    const branch = row.depth === 0 ? '' : `${'  '.repeat(row.depth - 1)}${row.fork ? '⑂ ' : '↳ '}`;
    lines.push(
      `${row.current ? '*' : ' '} ${row.id.padEnd(idWidth)}  ${row.words.padEnd(stateWidth)}  ${branch}${truncate(row.title, 80)}`,
    );
  }
  if (more) lines.push(`(Only the ${rows.length} most recently active are shown.)`);
  return lines.join('\n');
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}
