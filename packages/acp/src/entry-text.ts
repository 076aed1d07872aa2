import type { DividerEntry, NoteEntry, ReplyEntry } from 'a2a-chat-core';

/*
 * How entries that are not the model's words read in an editor, which draws
 * agent messages as Markdown: a command reply is headed with its command, so
 * it cannot pass for the model's answer.
 */

/** A command reply: headed with its command in bold, then its text, then the sub-task it started and how to open it. */
export function replyText(reply: ReplyEntry, agentUrl: string): string {
  const head = reply.error
    ? `**/${reply.command}** refused (${reply.error.code})`
    : `**/${reply.command}**`;
  const lines = [head, '', reply.text];
  if (reply.taskRef) lines.push('', subtaskText(reply.taskRef, agentUrl));
  return lines.join('\n');
}

/** A2A tasks are ACP sessions here: loading a session by the task's id opens it. */
export function subtaskText(taskId: string, agentUrl: string): string {
  return (
    `Sub-task \`${taskId}\`: open it by loading the session \`${taskId}\` ` +
    `(ACP \`session/load\`), or in a terminal with \`a2a-chat ${agentUrl} --task ${taskId}\`.`
  );
}

/** A note (a model error, an interrupted turn, a task's end): quoted, apart from the answer. */
export function noteText(note: NoteEntry): string {
  return note.text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

export function dividerText(divider: DividerEntry): string {
  return `---\n*${divider.text}*`;
}

/** Added after an answer that `/stop` or a cancel cut short. */
export const STOPPED_MARK = '\n\n*(stopped)*';
