import { SendMessageResponse, TaskState, type Message, type Task } from '@a2a-js/sdk';
import { commandOf, replyText } from 'a2a-commands/client';
import { isNote } from 'a2a-chat-core';
import { escapeJson, sanitizeText } from './sanitize.js';
import { stateWords } from './views.js';

/** What `send` prints, and whether it succeeded. */
export interface SendOutcome {
  /** The reply: the command's reply or the model's answer, safe to print. */
  text: string;
  ok: boolean;
  /** The command that replied, when one did. */
  command?: string;
  taskId?: string;
}

const FAILED: ReadonlySet<TaskState> = new Set([
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_REJECTED,
  TaskState.TASK_STATE_CANCELED,
]);

function clean(text: string): string {
  return sanitizeText(text, { keepTabs: true });
}

/** SendMessage's result as `send` reports it. */
export function sendOutcome(result: Task | Message): SendOutcome {
  if ('messageId' in result) {
    return { text: clean(replyText(result)), ok: true, command: commandOf(result) };
  }
  const message = result.status?.message;
  const state = result.status?.state;
  let text = message ? replyText(message) : '';
  if (text === '') {
    // An agent may answer only with artifacts.
    text = (result.artifacts ?? [])
      .flatMap((artifact) => artifact.parts)
      .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
      .join('');
  }
  const command = commandOf(result);
  // A command leaves the state as it was (SEMANTICS §4): a reply on an ended task is still a reply.
  const failed =
    command === undefined &&
    ((state !== undefined && FAILED.has(state)) || (message !== undefined && isNote(message)));
  if (failed && text === '') text = `The task ended: ${stateWords(state)}.`;
  return { text: clean(text), ok: !failed, command, taskId: result.id };
}

/** The raw A2A result, as the wire's SendMessageResponse JSON, safe to print. */
export function sendResultJson(result: Task | Message): string {
  const response: SendMessageResponse =
    'messageId' in result
      ? { payload: { $case: 'message', value: result } }
      : { payload: { $case: 'task', value: result } };
  return escapeJson(JSON.stringify(SendMessageResponse.toJSON(response), null, 2));
}
