import { AGENT, newMessage, textPart } from 'a2a-commands';
import { ANSWER_ARTIFACT_NAME } from 'a2a-chat-core';
import type { TaskState } from '@a2a-js/sdk';
import {
  type Artifact,
  type Message,
  type StreamResponse,
  type Task,
  type TaskStatus,
} from '@a2a-js/sdk';

/**
 * How a turn looks on the wire. The answer streams as artifact chunks (one
 * artifact per turn, `append` after the first chunk), the way A2A streams
 * output; the turn then ends with a status update whose message is the whole
 * answer. Only that message is stored: the chunks are a live preview, so the
 * history holds each answer once. While the turn runs, `GetTask` and the first
 * event of `SubscribeToTask` carry the answer so far (see AnswersInProgress).
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

// SEMANTICS §4: clients find the answer so far under this name, so the library names it.
export { TERMINAL_STATES } from 'a2a-commands';
export { ANSWER_ARTIFACT_NAME } from 'a2a-chat-core';

/** A turn's answer as one artifact: its chunks append to it. */
export function answerArtifact(turnId: string, text: string): Artifact {
  return {
    artifactId: `answer-${turnId}`,
    name: ANSWER_ARTIFACT_NAME,
    description: '',
    parts: [textPart(text)],
    metadata: undefined,
    extensions: [],
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
        artifact: answerArtifact(turnId, text),
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
