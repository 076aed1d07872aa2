import { AGENT, newMessage, textPart } from 'a2a-commands';
import {
  TaskState,
  type Message,
  type StreamResponse,
  type Task,
  type TaskStatus,
} from '@a2a-js/sdk';

/**
 * How a turn looks on the wire. The answer streams as artifact chunks (one
 * artifact per turn, `append` after the first chunk), the way A2A streams
 * output; the turn then ends with a status update whose message is the whole
 * answer. Only that message is stored: the chunks are a live preview, so
 * `GetTask` and the history hold each answer once.
 */
export function statusEvent(
  task: { id: string; contextId: string },
  status: TaskStatus,
): StreamResponse {
  return {
    payload: {
      $case: 'statusUpdate',
      value: { taskId: task.id, contextId: task.contextId, status, metadata: undefined },
    },
  };
}

export function answerChunk(
  task: { id: string; contextId: string },
  turnId: string,
  text: string,
  chunk: { first: boolean; last: boolean },
): StreamResponse {
  return {
    payload: {
      $case: 'artifactUpdate',
      value: {
        taskId: task.id,
        contextId: task.contextId,
        artifact: {
          artifactId: `answer-${turnId}`,
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
        append: !chunk.first,
        lastChunk: chunk.last,
        metadata: undefined,
      },
    },
  };
}

export function taskEvent(task: Task): StreamResponse {
  return { payload: { $case: 'task', value: task } };
}

export function agentMessage(task: { id: string; contextId: string }, text: string): Message {
  return newMessage({
    role: AGENT,
    parts: [textPart(text)],
    taskId: task.id,
    contextId: task.contextId,
  });
}

export function status(state: TaskState, message?: Message): TaskStatus {
  return { state, message, timestamp: new Date().toISOString() };
}

export const TERMINAL_STATES: ReadonlySet<TaskState> = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);
