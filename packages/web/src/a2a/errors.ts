import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import { ApiKeyRefusedError } from 'a2a-chat-core';
import { ApiKeyNeededError } from './api-key.js';

/** A failure as the chat shows it: a short title and one or two sentences. */
export interface Problem {
  title: string;
  detail: string;
  /** The agent did not answer at all (as opposed to answering with an error). */
  unreachable: boolean;
  /** The fix is in the API key field: there is no key (`missing`), or the agent refused it. */
  apiKey?: 'missing' | 'refused';
}

export type Doing = 'connect' | 'send' | 'stream' | 'open' | 'list';

const TITLES: Record<Doing, string> = {
  connect: 'Could not connect to the agent',
  send: 'The agent refused the request',
  stream: 'The answer stopped coming',
  open: 'Could not open the task',
  list: 'Could not list the tasks',
};

/** True for the error an aborted fetch or stream throws: not a problem to show. */
export function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/** Whether the agent said it has no such task (either transport's error). */
export function isTaskNotFound(error: unknown): boolean {
  return error instanceof TaskNotFoundError;
}

/** The message of an error, without the SDK's own prefixes. */
function messageOf(error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error);
  return raw.replace(/^(JSON-RPC error|Error):\s*/i, '').trim() || 'No reason was given.';
}

/**
 * What went wrong, in words for the person at the keyboard. A fetch that never
 * got an answer (a `TypeError` in every browser) means the agent is down, the
 * URL is wrong, or the agent does not allow this page's origin (CORS).
 */
export function describeError(error: unknown, agentUrl: string, doing: Doing): Problem {
  if (
    error instanceof ApiKeyNeededError ||
    (error instanceof ApiKeyRefusedError && !error.sentKey)
  ) {
    return {
      title: 'This agent needs an API key',
      detail: `${agentUrl} answers only calls that carry a key. Enter yours in the API key field, then connect.`,
      unreachable: false,
      apiKey: 'missing',
    };
  }
  if (error instanceof ApiKeyRefusedError) {
    return {
      title: 'The agent refused the API key',
      detail: `${agentUrl} did not accept the key: it is wrong, or no longer valid. Correct it in the API key field, then connect again.`,
      unreachable: false,
      apiKey: 'refused',
    };
  }
  if (error instanceof TypeError && /fetch|network|load failed/i.test(error.message)) {
    return {
      title: "Can't reach the agent",
      detail: `No answer from ${agentUrl}. Check that the agent is running, that the URL is right, and that it allows requests from this page (CORS).`,
      unreachable: true,
    };
  }
  const message = messageOf(error);
  const card = /^Failed to fetch Agent Card from (\S+): (\d+)/.exec(message);
  if (card) {
    return {
      title: 'No agent card there',
      detail: `${card[1]} answered HTTP ${card[2]}: ${agentUrl} does not look like an A2A agent.`,
      unreachable: false,
    };
  }
  return { title: TITLES[doing], detail: message, unreachable: false };
}
