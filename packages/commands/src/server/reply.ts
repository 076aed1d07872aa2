import type { Message, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import type { CommandResult } from '../command.js';
import { AGENT, dataPart, newMessage, textPart } from '../message.js';
import type { CommandReplyMetadata } from '../spec.js';
import type { TaskHead } from './command-task-store.js';

/** SEMANTICS §3: exactly `{command}`, or `{command, task_ref}` when a sub-task was made. */
export function replyMetadata(name: string, taskRef?: string): CommandReplyMetadata {
  return taskRef ? { command: name, task_ref: taskRef } : { command: name };
}

/** The reply message: agent role, a fresh id, the task's ids, a text part and an optional data part. */
export function replyMessage(
  task: Pick<TaskHead, 'id' | 'contextId'>,
  name: string,
  result: CommandResult,
): Message {
  const parts = [textPart(result.text)];
  if (result.data !== undefined) parts.push(dataPart(result.data));
  return newMessage({
    role: AGENT,
    parts,
    taskId: task.id,
    contextId: task.contextId,
    metadata: { ...replyMetadata(name, result.task_ref) },
  });
}

/** The re-emitted status update: the task's state unchanged, the reply as its message. */
export function commandReplyEvent(head: TaskHead, reply: Message): TaskStatusUpdateEvent {
  const metadata = reply.metadata as unknown as CommandReplyMetadata;
  return {
    taskId: head.id,
    contextId: head.contextId,
    status: {
      state: head.status?.state ?? 0,
      message: reply,
      timestamp: head.status?.timestamp ?? new Date().toISOString(),
    },
    metadata: replyMetadata(metadata.command, metadata.task_ref) as unknown as Record<
      string,
      unknown
    >,
  };
}
