/**
 * Fakes for the built-in commands' unit tests: a command context that keeps the
 * task's metadata in memory and records what the command did, a model catalog
 * with two providers, and a store stub with only the methods the commands use.
 * Not part of the build (tsconfig.build.json leaves out `test-*.ts`).
 */
import {
  Role,
  TaskState,
  type ListTasksRequest,
  type ListTasksResponse,
  type Message,
  type Task,
} from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import {
  CommandRegistry,
  SUBTASK_METADATA_KEY,
  type CommandContext,
  type CommandResult,
  type SubtaskInit,
  type SubtaskLinks,
  type TaskMetadata,
  type TaskView,
} from 'a2a-commands';
import type { TaskHead } from 'a2a-commands/server';
import type { LanguageModel } from 'ai';
import {
  closeMatches,
  UnknownModelError,
  type ModelCatalog,
  type ModelInfo,
} from '../../models/index.js';
import type { HarnessTaskStore } from '../../store/index.js';
import { registerBuiltins } from './index.js';
import type { BuiltinCommand, CommandServices } from './services.js';

export const TASK_ID = '0f8e4c2a-1111-4222-8333-444455556666';
export const CONTEXT_ID = 'ctx-1';

/** Two providers: `offline` (the default) and `openai`. */
export const MODELS: ModelInfo[] = [
  { id: 'offline/echo', provider: 'offline' },
  { id: 'openai/gpt-4o', provider: 'openai' },
  { id: 'openai/gpt-4o-mini', provider: 'openai' },
];

export function stubCatalog(
  models: ModelInfo[] = MODELS,
  defaultModel = 'offline/echo',
): ModelCatalog {
  const ids = () => models.map((m) => m.id);
  return {
    list: async () => models.map((m) => ({ ...m })),
    defaultModelId: async () => defaultModel,
    languageModel: async (id) => {
      if (!ids().includes(id)) throw new UnknownModelError(id, closeMatches(id, ids()));
      return { modelId: id } as unknown as LanguageModel;
    },
    suggest: async (id, limit = 3) => closeMatches(id, ids(), limit),
    providers: () => [...new Set(models.map((m) => m.provider))],
  };
}

export interface StubStore {
  store: HarnessTaskStore;
  /** Every `list` request, in order. */
  listed: ListTasksRequest[];
  /** Every id `loadHead` was asked for, in order. */
  heads: string[];
}

/** A store that knows `tasks` (and their `histories`); `list` pages them `pageSize` at a time. */
export function stubStore(
  tasks: TaskHead[] = [],
  histories: Record<string, Message[]> = {},
): StubStore {
  const listed: ListTasksRequest[] = [];
  const heads: string[] = [];
  const stub = {
    historyQuotaLeft: async () => Infinity,
    messageAt: async (id: string, seq: number) => structuredClone(histories[id]?.[seq]),
    loadHead: async (id: string) => {
      heads.push(id);
      return structuredClone(tasks.find((t) => t.id === id));
    },
    list: async (request: ListTasksRequest): Promise<ListTasksResponse> => {
      listed.push(request);
      const matching = tasks.filter((t) => !request.contextId || t.contextId === request.contextId);
      const start = request.pageToken ? Number(request.pageToken) : 0;
      const size = request.pageSize ?? 50;
      const page = matching.slice(start, start + size);
      const next = start + size < matching.length ? String(start + size) : '';
      return {
        tasks: page.map((t): Task => ({ ...structuredClone(t), history: [], artifacts: [] })),
        nextPageToken: next,
        pageSize: size,
        totalSize: matching.length,
      };
    },
  };
  return { store: stub as unknown as HarnessTaskStore, listed, heads };
}

/** A stored task head, for the store stub. */
export function head(
  id: string,
  state: TaskState,
  metadata: TaskMetadata = {},
  contextId = CONTEXT_ID,
): TaskHead {
  return { id, contextId, status: { state, message: undefined, timestamp: undefined }, metadata };
}

export interface FakeServicesOptions {
  catalog?: ModelCatalog;
  store?: HarnessTaskStore;
  queued?: number;
  busy?: boolean;
  /** Called by `/stop`; says whether a turn was running (default: `busy`). */
  stop?: (taskId: string) => boolean;
  /** Register the built-ins in a real registry (the default). */
  register?: boolean;
}

/** Services with a real `CommandRegistry` holding the built-ins. */
export function fakeServices(options: FakeServicesOptions = {}): CommandServices {
  const services: CommandServices = {
    catalog: options.catalog ?? stubCatalog(),
    registry: new CommandRegistry(),
    store: options.store ?? stubStore().store,
    turns: {
      queued: async () => options.queued ?? 0,
      busy: async () => options.busy ?? false,
      stop: async (taskId) => options.stop?.(taskId) ?? options.busy ?? false,
    },
  };
  if (options.register !== false) registerBuiltins(services.registry, services);
  return services;
}

export function textMessage(
  text: string,
  role: Role = Role.ROLE_USER,
  id = crypto.randomUUID(),
): Message {
  return {
    messageId: id,
    taskId: TASK_ID,
    contextId: CONTEXT_ID,
    role,
    parts: [
      {
        content: { $case: 'text', value: text },
        mediaType: 'text/plain',
        filename: '',
        metadata: undefined,
      },
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

export interface FakeTaskOptions {
  id?: string;
  contextId?: string;
  state?: TaskState;
  metadata?: TaskMetadata;
  history?: Message[];
}

export interface FakeRun {
  context: CommandContext;
  /** The task's metadata as stored now, after every `updateMetadata`. */
  readonly metadata: TaskMetadata;
  /** How many times the command called `updateMetadata`. */
  readonly updates: number;
  /** Every `createSubtask` call, in order. */
  subtasks: SubtaskInit[];
  /** How many times the command loaded the history. */
  readonly historyLoads: number;
}

/**
 * A command context over one in-memory task. Like the library's, `task.metadata`
 * is the snapshot the command started with; `updateMetadata` changes the stored copy
 * and `createSubtask` links the new id into it as the library does.
 */
export function fakeContext(args: string, options: FakeTaskOptions = {}): FakeRun {
  const id = options.id ?? TASK_ID;
  const contextId = options.contextId ?? CONTEXT_ID;
  const history = options.history ?? [];
  let stored: TaskMetadata = structuredClone(options.metadata ?? {});
  let updates = 0;
  let historyLoads = 0;
  const subtasks: SubtaskInit[] = [];

  const task: TaskView = {
    id,
    contextId,
    state: options.state ?? TaskState.TASK_STATE_INPUT_REQUIRED,
    metadata: structuredClone(stored),
    created: false,
    loadHistory: async () => {
      historyLoads++;
      return structuredClone(history);
    },
  };
  const context: CommandContext = {
    name: 'test',
    args,
    message: textMessage(`/test ${args}`),
    task,
    caller: { name: 'tester', authenticated: false },
    signal: new AbortController().signal,
    callContext: new ServerCallContext(),
    updateMetadata: async (update) => {
      updates++;
      stored = update(structuredClone(stored));
      return structuredClone(stored);
    },
    createSubtask: async (init = {}) => {
      subtasks.push(init);
      const subId = `sub-${subtasks.length}`;
      const links = (stored[SUBTASK_METADATA_KEY] ?? {}) as SubtaskLinks;
      stored = {
        ...stored,
        [SUBTASK_METADATA_KEY]: { ...links, subtasks: [...(links.subtasks ?? []), subId] },
      };
      return {
        id: subId,
        contextId,
        state: init.prompt ? TaskState.TASK_STATE_SUBMITTED : TaskState.TASK_STATE_INPUT_REQUIRED,
        metadata: { ...init.metadata, [SUBTASK_METADATA_KEY]: { parent: id } },
        created: true,
        loadHistory: async () => structuredClone(init.history ?? []),
      };
    },
  };
  return {
    context,
    get metadata() {
      return stored;
    },
    get updates() {
      return updates;
    },
    subtasks,
    get historyLoads() {
      return historyLoads;
    },
  };
}

/** Runs a built-in made from `services` and returns its result as a `CommandResult`. */
export async function run(
  make: BuiltinCommand,
  args: string,
  options: FakeTaskOptions & { services?: CommandServices } = {},
): Promise<{ result: CommandResult; fake: FakeRun }> {
  const fake = fakeContext(args, options);
  const services = options.services ?? fakeServices();
  // The store's history end is where the next message goes: the fake task's history length.
  const store = services.store as unknown as {
    historyEnd?: (id: string) => Promise<number>;
    loadHistory?: (id: string, context: unknown, options?: { from?: number }) => Promise<Message[]>;
  };
  store.historyEnd = async () => (options.history ?? []).length;
  store.loadHistory = async (_id, _context, { from = 0 } = {}) =>
    (options.history ?? []).slice(from);
  const command = make(services);
  const raw = await command.run(fake.context);
  const result = typeof raw === 'string' ? { text: raw } : raw;
  return { result, fake };
}
