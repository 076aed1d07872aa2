/**
 * Thrown by a command handler to tell the user what went wrong. Its message is
 * shown in the reply as it is; any other error is reported without details,
 * so that no stack trace, path or secret reaches a client (SEMANTICS §5).
 */
export class CommandError extends Error {
  override name = 'CommandError';
}
