import { RequestError } from '@agentclientprotocol/sdk';
import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import { ApiKeyRefusedError } from 'a2a-chat-core';

/*
 * Failures as the editor sees them: an ACP error whose message says what went
 * wrong with the A2A agent and what to do, never a stack trace or the key.
 */

/** The card requires a key and none was given. */
export class ApiKeyNeededError extends Error {
  override readonly name = 'ApiKeyNeededError';
  constructor(readonly agentUrl: string) {
    super(`The agent at ${agentUrl} needs an API key: set A2A_API_KEY or pass --api-key.`);
  }
}

/** The agent stopped answering mid-answer and could not be reached again in time. */
export class AgentGoneError extends Error {
  override readonly name = 'AgentGoneError';
}

/** Node's "fetch failed" hides the reason in its cause (a refused connect is an AggregateError). */
function causeOf(error: Error): string | undefined {
  const cause = (error as { cause?: unknown }).cause;
  if (!(cause instanceof Error)) return undefined;
  const code = (cause as { code?: unknown }).code;
  const message = cause.message || (cause instanceof AggregateError ? causeOf(cause) : undefined);
  if (typeof code === 'string' && message && !message.includes(code)) return `${code}: ${message}`;
  return message || (typeof code === 'string' ? code : undefined);
}

/** One line saying what went wrong. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = causeOf(error);
  const message = error.message || error.name;
  return cause ? `${message} (${cause})` : message;
}

/** Whether the agent could not be reached at all (no HTTP answer). */
export function isUnreachable(error: unknown): boolean {
  return error instanceof TypeError;
}

/** The ACP error for a failure talking to the agent at `agentUrl`. */
export function acpError(error: unknown, agentUrl: string): RequestError {
  if (error instanceof RequestError) return error;
  if (error instanceof ApiKeyNeededError) {
    return RequestError.authRequired({ agentUrl }, error.message);
  }
  if (error instanceof ApiKeyRefusedError) {
    return RequestError.authRequired(
      { agentUrl },
      error.sentKey
        ? `the agent at ${agentUrl} refused the API key (A2A_API_KEY or --api-key)`
        : `the agent at ${agentUrl} needs an API key: set A2A_API_KEY or pass --api-key`,
    );
  }
  if (error instanceof AgentGoneError)
    return RequestError.internalError({ agentUrl }, error.message);
  if (isUnreachable(error)) {
    return RequestError.internalError(
      { agentUrl },
      `cannot reach the A2A agent at ${agentUrl}: ${describeError(error)}`,
    );
  }
  if (error instanceof TaskNotFoundError) {
    return new RequestError(
      -32002,
      `Resource not found: the agent at ${agentUrl} has no such task`,
      {
        agentUrl,
      },
    );
  }
  return RequestError.internalError(
    { agentUrl },
    `the A2A agent at ${agentUrl} answered with an error: ${describeError(error)}`,
  );
}
