import type { Client } from '@a2a-js/sdk/client';
import type { Task, TaskStatus } from '@a2a-js/sdk';
import { streamText } from 'a2a-commands/client';
import { sanitizeChunk, sanitizeText } from './sanitize.js';

/** What a streamed `send` ends with: the task as its events left it, and whether text was printed. */
export interface StreamedSend {
  result: Task;
  /** Some of the answer was printed as it came; the final message need not be printed again. */
  printed: boolean;
  /** The last character printed, to end the output with a line break. */
  endsWithNewline: boolean;
}

/**
 * `send` for an ordinary message: SendStreamingMessage, with the answer's text
 * written to `write` as the agent streams it (its artifact updates), each
 * piece made safe for a terminal. The last status is kept for the outcome.
 */
export async function streamSend(
  client: Client,
  text: string,
  options: { taskId?: string; write: (text: string) => void },
): Promise<StreamedSend> {
  let id = options.taskId ?? '';
  let contextId = '';
  let status: TaskStatus | undefined;
  let pending = '';
  let printed = '';
  const print = (piece: string) => {
    if (piece === '') return;
    options.write(piece);
    printed = piece;
  };
  let anything = false;
  for await (const event of streamText(client, text, { taskId: options.taskId })) {
    const payload = event.payload;
    if (payload?.$case === 'task') {
      id = payload.value.id;
      contextId = payload.value.contextId;
      status = payload.value.status;
    } else if (payload?.$case === 'statusUpdate') {
      status = payload.value.status;
    } else if (payload?.$case === 'message') {
      // A plain agent may answer with a message and no task.
      status = { state: status?.state ?? 0, message: payload.value, timestamp: '' };
    } else if (payload?.$case === 'artifactUpdate') {
      for (const part of payload.value.artifact?.parts ?? []) {
        if (part.content?.$case !== 'text') continue;
        const safe = sanitizeChunk(pending, part.content.value);
        pending = safe.pending;
        print(safe.text);
        anything = true;
      }
    }
  }
  print(sanitizeText(pending));
  const result: Task = { id, contextId, status, history: [], artifacts: [], metadata: {} };
  return { result, printed: anything, endsWithNewline: printed.endsWith('\n') };
}
