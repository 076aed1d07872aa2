/**
 * Checks on stored histories, as wire JSON, that a crash must never break.
 * Each returns the problems it found, so that a failing test prints them all.
 */

/** A history entry as GetTask returns it. */
export interface WireMessage {
  messageId: string;
  role: string;
  parts: { text?: string }[];
  metadata?: { command?: string };
}

export const textOf = (message: WireMessage): string =>
  message.parts.map((part) => part.text ?? '').join('');

const isCommand = (m: WireMessage | undefined) => m?.role === 'ROLE_USER' && !!m.metadata?.command;
const isReply = (m: WireMessage | undefined) => m?.role === 'ROLE_AGENT' && !!m.metadata?.command;

/**
 * No entry twice, and commands whole: every command message is followed at once
 * by its reply (one transaction writes both), and no reply stands alone.
 */
export function historyProblems(taskId: string, history: WireMessage[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  history.forEach((message, i) => {
    if (seen.has(message.messageId))
      problems.push(`${taskId}: message ${message.messageId} is stored twice`);
    seen.add(message.messageId);
    const next = history[i + 1];
    if (
      isCommand(message) &&
      !(isReply(next) && next!.metadata!.command === message.metadata!.command)
    )
      problems.push(`${taskId}: command "${textOf(message)}" at ${i} is not followed by its reply`);
    if (isReply(message) && !isCommand(history[i - 1]))
      problems.push(`${taskId}: reply "${textOf(message)}" at ${i} follows no command`);
  });
  return problems;
}

/** Where each message id is stored: task id and position, over every history given. */
export function messageIndex(
  tasks: { id: string; history: WireMessage[] }[],
): Map<string, { taskId: string; at: number }[]> {
  const index = new Map<string, { taskId: string; at: number }[]>();
  for (const task of tasks)
    task.history.forEach((message, at) => {
      const places = index.get(message.messageId) ?? [];
      places.push({ taskId: task.id, at });
      index.set(message.messageId, places);
    });
  return index;
}
