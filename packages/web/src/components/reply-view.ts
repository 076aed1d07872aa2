import type { Entry } from '../a2a/transcript.js';
import { toTaskState } from '../a2a/task-states.js';
import type { TaskState } from '@a2a-js/sdk';

/*
 * Reading a command reply's data part for the card: each shape is checked,
 * never assumed, since any agent may send any data.
 */

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `/model`'s data part: the task's model and the models to choose from. */
export interface ModelData {
  current: string;
  models: Array<{ id: string; provider: string }>;
}

export function asModelData(data: unknown): ModelData | undefined {
  if (!isRecord(data) || typeof data['current'] !== 'string') return undefined;
  const models = data['models'];
  if (!Array.isArray(models)) return undefined;
  const valid = models.filter(
    (model): model is { id: string; provider: string } =>
      isRecord(model) && typeof model['id'] === 'string' && typeof model['provider'] === 'string',
  );
  return { current: data['current'], models: valid.map(({ id, provider }) => ({ id, provider })) };
}

/** The models grouped by provider, in the order they came. */
export function byProvider(models: ModelData['models']): Array<[string, ModelData['models']]> {
  const groups = new Map<string, ModelData['models']>();
  for (const model of models) {
    const group = groups.get(model.provider) ?? [];
    group.push(model);
    groups.set(model.provider, group);
  }
  return [...groups];
}

/** `openai/gpt-x` shown under its provider `openai` as `gpt-x`. */
export function modelName(model: { id: string; provider: string }): string {
  const prefix = `${model.provider}/`;
  return model.id.startsWith(prefix) ? model.id.slice(prefix.length) : model.id;
}

/** One row of `/tasks`'s data part. */
export interface ListedTask {
  id: string;
  title: string;
  state?: TaskState;
  current: boolean;
  /** The task it was spawned or forked from. */
  parent?: string;
  /** A copy made by `/fork`. */
  fork?: boolean;
}

export function asTaskList(data: unknown): ListedTask[] | undefined {
  if (!isRecord(data) || !Array.isArray(data['tasks'])) return undefined;
  return data['tasks'].flatMap((row: unknown) =>
    isRecord(row) && typeof row['id'] === 'string'
      ? [
          {
            id: row['id'],
            title: typeof row['title'] === 'string' ? row['title'] : row['id'],
            state: toTaskState(row['state']),
            current: row['current'] === true,
            parent: typeof row['parent'] === 'string' ? row['parent'] : undefined,
            fork: row['fork'] === true || undefined,
          },
        ]
      : [],
  );
}

/**
 * The reply says it could not do what was asked: `data.error` names the error,
 * as the harness's own refusals do (`"unknown_command"`), or is the shared
 * refusal `{code, message}` (a2a-commands' refusal.schema.json).
 */
export function isErrorReply(data: unknown): boolean {
  if (!isRecord(data)) return false;
  const error = data['error'];
  return typeof error === 'string' || (isRecord(error) && typeof error['code'] === 'string');
}

/** The text up to its first blank line: the summary above a picker or a list. */
export function summaryOf(text: string): string {
  const [first = ''] = text.split(/\n[ \t]*\n/);
  return first.trim();
}

/**
 * The task's model, as the newest `/model` reply says it (every one, a refusal
 * too, carries the model in force in `data.current`); undefined before any.
 */
export function modelFromReplies(entries: readonly Entry[]): string | undefined {
  const reply = entries.findLast((entry) => entry.kind === 'reply' && entry.command === 'model');
  return reply?.kind === 'reply' ? asModelData(reply.data)?.current : undefined;
}

export interface ListedCommand {
  name: string;
  hint: string;
  description: string;
}

/** `/help`'s overview data: `{commands: [{name, description, argument_hint}]}`, two or more. */
export function asCommandList(data: unknown): ListedCommand[] | undefined {
  if (!isRecord(data) || !Array.isArray(data['commands'])) return undefined;
  const commands = data['commands'].flatMap((row: unknown) =>
    isRecord(row) && typeof row['name'] === 'string'
      ? [
          {
            name: row['name'],
            hint: typeof row['argument_hint'] === 'string' ? row['argument_hint'] : '',
            description: typeof row['description'] === 'string' ? row['description'] : '',
          },
        ]
      : [],
  );
  return commands.length > 1 ? commands : undefined;
}
