import { TaskState, taskStateFromJSON, taskStateToJSON } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { SUBTASK_METADATA_KEY, type CommandResult, type SubtaskLinks } from 'a2a-commands';
import { settingsOf, type TokenUsage } from '../../settings.js';
import { formatCount, plural, quote, stateWords } from './format.js';
import type { BuiltinCommand, CommandServices } from './services.js';

/** How deep `/status` follows sub-tasks of sub-tasks. */
export const MAX_SUBTASK_DEPTH = 8;
/** How many sub-tasks `/status` reads at most, so one reply stays cheap. */
export const MAX_SUBTASKS = 200;

export interface SubtaskStatus {
  id: string;
  /** The task that created it. */
  parent: string;
  /** 1 for this task's own sub-tasks, 2 for theirs, … */
  depth: number;
  title: string | null;
  /** Wire name, e.g. `TASK_STATE_WORKING`. */
  state: string;
  turns: number;
  usage: TokenUsage;
}

/** The data part of `/status`: the same facts as its text. */
export interface StatusData {
  id: string;
  contextId: string;
  title: string | null;
  /** Wire name, e.g. `TASK_STATE_INPUT_REQUIRED`. */
  state: string;
  model: string;
  /** True when the task has chosen no model and uses the server default. */
  defaultModel: boolean;
  turns: number;
  /** Whether a model turn is running on the task now. */
  running: boolean;
  /** Messages waiting for the running turn to end. */
  queued: number;
  usage: { task: TokenUsage; subtasks: TokenUsage; total: TokenUsage };
  subtasks: SubtaskStatus[];
  /** Sub-tasks that are linked but could not be read (gone, or past the limits). */
  unreadable: number;
}

/**
 * `/status`: the task's state, model, turns, token usage (its own and its
 * sub-tasks', followed down the sub-task links), queued messages and sub-tasks.
 */
export const statusCommand: BuiltinCommand = (services) => ({
  name: 'status',
  description: "Show this task's state, model, usage and sub-tasks",
  argument_hint: '',
  run: async ({ task, callContext }): Promise<CommandResult> => {
    const settings = settingsOf(task.metadata);
    const model = settings.model ?? (await services.catalog.defaultModelId());
    const own = usageOf(settings.usage);
    const { subtasks, unreadable } = await loadSubtasks(
      services,
      task.id,
      task.metadata,
      callContext,
    );
    const fromSubtasks = sum(subtasks.map((s) => s.usage));
    const data: StatusData = {
      id: task.id,
      contextId: task.contextId,
      title: settings.title ?? null,
      state: taskStateToJSON(task.state),
      model,
      defaultModel: settings.model === undefined,
      turns: settings.turns ?? 0,
      running: await services.turns.busy(task.id),
      queued: await services.turns.queued(task.id),
      usage: { task: own, subtasks: fromSubtasks, total: sum([own, fromSubtasks]) },
      subtasks,
      unreadable,
    };
    return { text: render(data, task.state), data };
  },
});

function usageOf(usage: TokenUsage | undefined): TokenUsage {
  return { inputTokens: usage?.inputTokens ?? 0, outputTokens: usage?.outputTokens ?? 0 };
}

function sum(usages: TokenUsage[]): TokenUsage {
  return usages.reduce(
    (total, usage) => ({
      inputTokens: total.inputTokens + usage.inputTokens,
      outputTokens: total.outputTokens + usage.outputTokens,
    }),
    { inputTokens: 0, outputTokens: 0 },
  );
}

function subtaskIds(metadata: Readonly<Record<string, unknown>> | undefined): string[] {
  const links = metadata?.[SUBTASK_METADATA_KEY] as SubtaskLinks | undefined;
  const ids = links?.subtasks;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}

/**
 * The task's sub-tasks, breadth first, each read once (a visited set guards
 * against cycles), within {@link MAX_SUBTASK_DEPTH} and {@link MAX_SUBTASKS}.
 */
async function loadSubtasks(
  services: CommandServices,
  rootId: string,
  rootMetadata: Readonly<Record<string, unknown>>,
  callContext: ServerCallContext,
): Promise<{ subtasks: SubtaskStatus[]; unreadable: number }> {
  const visited = new Set<string>([rootId]);
  const subtasks: SubtaskStatus[] = [];
  let unreadable = 0;
  let level = subtaskIds(rootMetadata).map((id) => ({ id, parent: rootId }));
  for (let depth = 1; level.length > 0; depth++) {
    const fresh = level.filter(({ id }) => {
      if (visited.has(id)) return false;
      visited.add(id);
      return true;
    });
    const room = MAX_SUBTASKS - subtasks.length;
    if (depth > MAX_SUBTASK_DEPTH || room <= 0) {
      unreadable += fresh.length;
      break;
    }
    unreadable += Math.max(0, fresh.length - room);
    const batch = fresh.slice(0, room);
    const heads = await Promise.all(
      batch.map(({ id }) => services.store.loadHead(id, callContext).catch(() => undefined)),
    );
    const next: Array<{ id: string; parent: string }> = [];
    batch.forEach(({ id, parent }, i) => {
      const head = heads[i];
      if (!head) {
        unreadable++;
        return;
      }
      const settings = settingsOf(head.metadata);
      subtasks.push({
        id,
        parent,
        depth,
        title: settings.title ?? null,
        state: taskStateToJSON(head.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED),
        turns: settings.turns ?? 0,
        usage: usageOf(settings.usage),
      });
      for (const child of subtaskIds(head.metadata)) next.push({ id: child, parent: id });
    });
    level = next;
  }
  return { subtasks, unreadable };
}

function tokens(usage: TokenUsage): string {
  return `${formatCount(usage.inputTokens)} in, ${formatCount(usage.outputTokens)} out`;
}

function render(data: StatusData, state: TaskState): string {
  const lines = [
    `Task ${data.id}${data.title ? ` ${quote(data.title, 80)}` : ''}`,
    `State: ${stateWords(state)}${data.running ? ' (a model turn is running)' : ''}`,
    `Model: ${data.model}${data.defaultModel ? ' (the server default)' : ''}`,
    `Turns: ${data.turns}`,
  ];
  if (data.subtasks.length > 0) {
    lines.push(
      `Tokens: ${tokens(data.usage.total)} (this task ${tokens(data.usage.task)}; sub-tasks ${tokens(data.usage.subtasks)})`,
    );
  } else {
    lines.push(`Tokens: ${tokens(data.usage.total)}`);
  }
  lines.push(`Queued messages: ${data.queued}`);
  if (data.subtasks.length === 0) {
    lines.push('Sub-tasks: none');
  } else {
    lines.push(`Sub-tasks (${data.subtasks.length}):`);
    for (const sub of data.subtasks) {
      const indent = '  '.repeat(sub.depth);
      const title = sub.title ? quote(sub.title, 60) : '(untitled)';
      lines.push(`${indent}- ${sub.id} ${title}: ${stateWords(taskStateFromJSON(sub.state))}`);
    }
  }
  if (data.unreadable > 0) {
    lines.push(`(Not counted: ${plural(data.unreadable, 'sub-task')} that could not be read.)`);
  }
  return lines.join('\n');
}
