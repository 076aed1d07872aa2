import { taskTree } from 'a2a-chat-core';
import { sanitizeLine } from './sanitize.js';
import type { Entry } from './transcript.js';

/** At most this many choices show at once; the window follows the highlight. */
export const PICKER_ROWS = 8;

/** One entry of a selectable list drawn from a reply's data part. */
export interface Choice {
  id: string;
  label: string;
  detail: string;
  current: boolean;
  /** For a task: 0 at the top, 1 for a sub-task or fork of the task above it, and so on. */
  depth?: number;
  /** For a task: a copy made by `/fork`. */
  fork?: boolean;
}

/** A reply whose data can be picked from: models to switch to, or tasks to open. */
export interface ChoiceSet {
  kind: 'model' | 'task';
  choices: Choice[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `/model`'s data part, `{current, models: [{id, provider}]}`, as choices. */
export function modelChoices(data: unknown): Choice[] | undefined {
  if (!isObject(data) || !Array.isArray(data.models)) return undefined;
  const current = typeof data.current === 'string' ? data.current : undefined;
  const choices: Choice[] = [];
  for (const model of data.models as unknown[]) {
    if (!isObject(model) || typeof model.id !== 'string' || model.id === '') continue;
    const label = sanitizeLine(model.id);
    // A model id is sent back as an argument: one that would not survive the trip is left out.
    if (label !== model.id || /\s/.test(model.id)) continue;
    choices.push({
      id: model.id,
      label,
      detail: typeof model.provider === 'string' ? sanitizeLine(model.provider) : '',
      current: model.id === current,
    });
  }
  return choices.length > 0 ? choices : undefined;
}

/**
 * `/tasks`'s data part, `{tasks: [{id, title, state, current, parent?, fork?}]}`,
 * as choices in tree order: sub-tasks and forks under the task they came from.
 */
export function taskChoices(data: unknown): Choice[] | undefined {
  if (!isObject(data) || !Array.isArray(data.tasks)) return undefined;
  const choices: Array<Choice & { parent?: string }> = [];
  for (const task of data.tasks as unknown[]) {
    if (!isObject(task) || typeof task.id !== 'string' || task.id === '') continue;
    const state = typeof task.state === 'string' ? task.state : '';
    choices.push({
      id: task.id,
      label: sanitizeLine(typeof task.title === 'string' ? task.title : task.id),
      detail: sanitizeLine(
        state
          .replace(/^TASK_STATE_/, '')
          .toLowerCase()
          .replace(/_/g, ' '),
      ),
      current: task.current === true,
      parent: typeof task.parent === 'string' ? task.parent : undefined,
      fork: task.fork === true,
    });
  }
  return choices.length > 0
    ? taskTree(choices).map(({ parent: _parent, ...choice }) => choice)
    : undefined;
}

/** The choices a reply offers, when it is a `/model` or `/tasks` reply with usable data. */
export function choicesOf(entry: Entry): ChoiceSet | undefined {
  if (entry.kind !== 'reply') return undefined;
  if (entry.command === 'model') {
    const choices = modelChoices(entry.data);
    return choices && { kind: 'model', choices };
  }
  if (entry.command === 'tasks') {
    const choices = taskChoices(entry.data);
    return choices && { kind: 'task', choices };
  }
  return undefined;
}
