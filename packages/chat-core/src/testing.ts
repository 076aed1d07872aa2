import { Role, TaskState, type Message, type StreamResponse, type Task } from '@a2a-js/sdk';
import { dataPart, textPart } from 'a2a-commands';

/**
 * `a2a-chat-core/testing`: builders for the A2A objects a chat reads, as the
 * SDK's client hands them over, for the tests of any client on the core.
 */

export function agentMessage(
  text: string,
  options: { id?: string; metadata?: Record<string, unknown>; data?: unknown } = {},
): Message {
  const parts: Message['parts'] = [textPart(text)];
  if (options.data !== undefined) parts.push(dataPart(options.data));
  return {
    messageId: options.id ?? crypto.randomUUID(),
    taskId: 't1',
    contextId: 'c1',
    role: Role.ROLE_AGENT,
    parts,
    metadata: options.metadata,
    extensions: [],
    referenceTaskIds: [],
  };
}

export function userMessage(text: string): Message {
  return { ...agentMessage(text), role: Role.ROLE_USER };
}

/** A command reply (SEMANTICS §3): tagged on the event and on its message. */
export function commandReply(
  command: string,
  text: string,
  options: { data?: unknown; taskRef?: string; state?: TaskState; id?: string } = {},
): StreamResponse {
  const metadata: Record<string, unknown> = { command };
  if (options.taskRef) metadata.task_ref = options.taskRef;
  const message = agentMessage(text, { id: options.id, metadata, data: options.data });
  return {
    payload: {
      $case: 'statusUpdate',
      value: {
        taskId: 't1',
        contextId: 'c1',
        status: {
          state: options.state ?? TaskState.TASK_STATE_INPUT_REQUIRED,
          message,
          timestamp: undefined,
        },
        metadata,
      },
    },
  };
}

export function chunk(
  text: string,
  options: { first?: boolean; last?: boolean; artifactId?: string } = {},
): StreamResponse {
  return {
    payload: {
      $case: 'artifactUpdate',
      value: {
        taskId: 't1',
        contextId: 'c1',
        artifact: {
          artifactId: options.artifactId ?? 'answer-1',
          name: 'answer',
          description: '',
          parts: [textPart(text)],
          metadata: undefined,
          extensions: [],
        },
        append: !(options.first ?? false),
        lastChunk: options.last ?? false,
        metadata: undefined,
      },
    },
  };
}

export function status(state: TaskState, message?: Message): StreamResponse {
  return {
    payload: {
      $case: 'statusUpdate',
      value: {
        taskId: 't1',
        contextId: 'c1',
        status: { state, message, timestamp: undefined },
        metadata: undefined,
      },
    },
  };
}

export function task(
  history: Message[],
  state = TaskState.TASK_STATE_INPUT_REQUIRED,
  id = 't1',
): Task {
  return {
    id,
    contextId: 'c1',
    status: { state, message: history.at(-1), timestamp: undefined },
    history,
    artifacts: [],
    metadata: {},
  };
}
