import type { ServerCallContext } from '@a2a-js/sdk/server';
import { Ajv, type ValidateFunction } from 'ajv';
import { callerOf } from '../caller-commands.js';
import type { CompletionContext } from '../command.js';
import type { CommandRegistry } from '../registry.js';
import { completionRequestSchema } from '../schema/completion.js';
import type { CommandTaskStore } from '../server/command-task-store.js';
import { matchValues } from './match.js';
import {
  DEFAULT_MAX_VALUES,
  type CompletionRequest,
  type CompletionResponse,
  type CompletionValue,
} from './spec.js';

let validateRequest: ValidateFunction | undefined;
/** Compiled once a process, on the first request: a server is made at every start, and most never complete. */
const requestValidator = () =>
  (validateRequest ??= new Ajv({ allErrors: false }).compile(completionRequestSchema));

/** A request the endpoint refuses: the HTTP status and the spec's error code. */
export class CompletionRefusal extends Error {
  override name = 'CompletionRefusal';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface ArgumentCompletionsOptions {
  registry: CommandRegistry;
  /** Where a request's `task_id` is checked, as the caller sees it. */
  store: Pick<CommandTaskStore, 'loadHead'>;
  maxValues?: number;
}

/**
 * The server half of the completion extension: answers one request from the
 * registered arguments' choices and completers. It only reads (rule 1), and
 * every read goes through the caller's call context (rule 2).
 */
export class ArgumentCompletions {
  readonly maxValues: number;

  constructor(private readonly options: ArgumentCompletionsOptions) {
    this.maxValues = options.maxValues ?? DEFAULT_MAX_VALUES;
  }

  async answer(
    body: unknown,
    callContext: ServerCallContext,
    signal: AbortSignal = new AbortController().signal,
  ): Promise<CompletionResponse> {
    const validate = requestValidator();
    if (!validate(body)) {
      const [first] = validate.errors ?? [];
      const where = first?.instancePath || '(the body)';
      throw new CompletionRefusal(
        400,
        'invalid-request',
        `Invalid completion request: ${where} ${first?.message ?? 'is invalid'}.`,
      );
    }
    const request = body as CompletionRequest;
    const caller = callerOf(callContext);
    // SEMANTICS §9: a command the caller may not run is unknown to them.
    const command = this.options.registry.forCaller(caller).get(request.command);
    if (!command) {
      throw new CompletionRefusal(
        404,
        'unknown-command',
        `There is no command /${request.command}.`,
      );
    }
    // Rule 2: a task the caller may not see is answered as if it did not exist.
    let task: CompletionContext['task'];
    if (request.task_id !== undefined) {
      const head = await this.options.store.loadHead(request.task_id, callContext);
      if (!head) throw new CompletionRefusal(404, 'task-not-found', 'Task not found.');
      task = { id: head.id, contextId: head.contextId };
    }
    const argument = command.arguments?.[request.argument.index];
    if (!argument) return { values: [], has_more: false };

    const offered: CompletionValue[] = [...(argument.choices ?? [])];
    if (argument.complete) {
      offered.push(
        ...(await argument.complete({
          command: command.name,
          index: request.argument.index,
          value: request.argument.value,
          previous: request.arguments ?? [],
          caller,
          task,
          contextId: task?.contextId ?? request.context_id,
          callContext,
          signal,
        })),
      );
    }
    return matchValues(offered, request.argument.value, this.maxValues);
  }
}
