import { REPLY_ERROR_CODE_PATTERN, REPLY_ERROR_CODES } from './spec.js';

export interface CommandErrorOptions extends ErrorOptions {
  /**
   * The refusal's machine-readable code, kebab-case (`unknown-model`); `command-error`
   * when absent or not kebab-case. Clients read it with `replyErrorOf()`.
   */
  code?: string;
}

/**
 * Thrown by a command handler to tell the user what went wrong. Its message is
 * shown in the reply as it is, and the reply's data part is
 * `{"error": {"code", "message"}}`. Any other error is reported without
 * details, so that no stack trace, path or secret reaches a client (SEMANTICS §5).
 */
export class CommandError extends Error {
  override name = 'CommandError';
  readonly code: string;

  constructor(message: string, options: CommandErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    const { code } = options;
    this.code =
      code !== undefined && REPLY_ERROR_CODE_PATTERN.test(code)
        ? code
        : REPLY_ERROR_CODES.commandError;
  }
}
