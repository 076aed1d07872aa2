import type { Message, StreamResponse, Task } from '@a2a-js/sdk';
import type { CommandSpec } from 'a2a-commands/client';

/** Commands as the harness's card lists them (a subset, in card order). */
export const COMMANDS: CommandSpec[] = [
  { name: 'help', description: 'List the commands, or explain one', argument_hint: '[<command>]' },
  { name: 'model', description: "Show or choose this task's model", argument_hint: '[<model>]' },
  { name: 'status', description: "Show this task's state", argument_hint: '' },
  { name: 'spawn', description: 'Run a prompt as a sub-task', argument_hint: '<prompt>' },
  { name: 'tasks', description: 'List the tasks in this conversation', argument_hint: '' },
];

export const TASK = { id: 'task-1', contextId: 'ctx-1' };

export function message(
  role: 'user' | 'agent',
  text: string,
  options: { id?: string; metadata?: Record<string, unknown>; data?: unknown } = {},
): Message {
  const parts: Message['parts'] = [
    {
      content: { $case: 'text', value: text },
      mediaType: 'text/plain',
      filename: '',
      metadata: undefined,
    },
  ];
  if (options.data !== undefined) {
    parts.push({
      content: { $case: 'data', value: options.data as never },
      mediaType: 'application/json',
      filename: '',
      metadata: undefined,
    });
  }
  return {
    messageId: options.id ?? `${role}-${text}`,
    taskId: TASK.id,
    contextId: TASK.contextId,
    role: role === 'user' ? 1 : 2,
    parts,
    metadata: options.metadata,
    extensions: [],
    referenceTaskIds: [],
  };
}

export function task(state: number, history: Message[] = [], metadata = {}): Task {
  return {
    ...TASK,
    status: { state, message: undefined, timestamp: '2026-01-01T00:00:00.000Z' },
    history,
    artifacts: [],
    metadata,
  };
}

export function taskEvent(value: Task): StreamResponse {
  return { payload: { $case: 'task', value } };
}

export function statusEvent(
  state: number,
  reply?: Message,
  metadata?: Record<string, unknown>,
): StreamResponse {
  return {
    payload: {
      $case: 'statusUpdate',
      value: {
        ...{ taskId: TASK.id, contextId: TASK.contextId },
        status: { state, message: reply, timestamp: '2026-01-01T00:00:01.000Z' },
        metadata,
      },
    },
  };
}

export function chunkEvent(
  text: string,
  chunk: { append: boolean; last: boolean },
  artifactId = 'answer-1',
): StreamResponse {
  return {
    payload: {
      $case: 'artifactUpdate',
      value: {
        taskId: TASK.id,
        contextId: TASK.contextId,
        artifact: {
          artifactId,
          name: 'answer',
          description: '',
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
        },
        append: chunk.append,
        lastChunk: chunk.last,
        metadata: undefined,
      },
    },
  };
}

/** A command reply as the library sends it: tagged on the update and on the message. */
export function commandReply(
  command: string,
  text: string,
  options: { data?: unknown; taskRef?: string; id?: string } = {},
): { event: StreamResponse; message: Message } {
  const metadata = options.taskRef ? { command, task_ref: options.taskRef } : { command };
  const reply = message('agent', text, { id: options.id, metadata, data: options.data });
  return { event: statusEvent(6, reply, metadata), message: reply };
}

/** `Storage` in a Map: local or session storage, for one test. */
export function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (key) => map.get(key) ?? null,
    key: (index) => [...map.keys()][index] ?? null,
    removeItem: (key) => void map.delete(key),
    setItem: (key, value) => void map.set(key, value),
  };
}
