import { matchValues } from '../completion/match.js';
import {
  COMMAND_COMPLETION_EXTENSION_URI,
  DEFAULT_MAX_VALUES,
  type ArgumentSpec,
  type CommandArguments,
  type CommandCompletionParams,
  type CompletionErrorBody,
  type CompletionRequest,
  type CompletionResponse,
  type CompletionValue,
} from '../completion/spec.js';
import { COMMAND_NAME_PATTERN } from '../spec.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readValue(raw: unknown): CompletionValue | undefined {
  if (!isObject(raw) || typeof raw['value'] !== 'string' || raw['value'] === '') return undefined;
  const description = raw['description'];
  return typeof description === 'string'
    ? { value: raw['value'], description }
    : { value: raw['value'] };
}

function readArgument(raw: unknown): ArgumentSpec | undefined {
  if (!isObject(raw) || typeof raw['name'] !== 'string') return undefined;
  const spec: ArgumentSpec = { name: raw['name'] };
  if (typeof raw['description'] === 'string') spec.description = raw['description'];
  if (Array.isArray(raw['choices'])) {
    spec.choices = raw['choices'].flatMap((choice: unknown) => readValue(choice) ?? []);
  }
  if (raw['dynamic'] === true) spec.dynamic = true;
  return spec;
}

/**
 * The command completion extension's params from a card (in memory or raw
 * JSON), or undefined when the card does not offer it. Never throws; entries
 * that do not follow the schema are dropped. Browser-safe: no schema compiler.
 */
export function readCompletion(card: unknown): CommandCompletionParams | undefined {
  if (!isObject(card) || !isObject(card['capabilities'])) return undefined;
  const extensions = card['capabilities']['extensions'];
  if (!Array.isArray(extensions)) return undefined;
  const entry = extensions.find(
    (ext: unknown) => isObject(ext) && ext['uri'] === COMMAND_COMPLETION_EXTENSION_URI,
  ) as Record<string, unknown> | undefined;
  const params = entry?.['params'];
  if (!isObject(params) || typeof params['endpoint'] !== 'string' || params['endpoint'] === '') {
    return undefined;
  }
  const commands: CommandArguments[] = [];
  for (const raw of Array.isArray(params['commands']) ? (params['commands'] as unknown[]) : []) {
    if (!isObject(raw) || typeof raw['name'] !== 'string') continue;
    if (!COMMAND_NAME_PATTERN.test(raw['name']) || !Array.isArray(raw['arguments'])) continue;
    const args = (raw['arguments'] as unknown[]).map(readArgument);
    if (args.some((arg) => arg === undefined)) continue;
    commands.push({ name: raw['name'], arguments: args as ArgumentSpec[] });
  }
  const max = params['max_values'];
  return {
    endpoint: params['endpoint'],
    max_values:
      typeof max === 'number' && Number.isInteger(max) && max > 0 ? max : DEFAULT_MAX_VALUES,
    commands,
  };
}

/** Where the cursor is in a command line: which argument, and what is typed of it. */
export interface ArgumentPosition {
  command: string;
  /** The argument's position, from 0. */
  index: number;
  /** What is typed of it so far. */
  value: string;
  /** The arguments before it. */
  previous: string[];
  /** Where `value` starts in the input: a taken value replaces the input from here. */
  start: number;
}

/** SEMANTICS §2: a name, then whitespace (space, tab, CR, LF). */
const COMMAND_HEAD = /^\/([a-z][a-z0-9-]*)[ \t\r\n]/;

/**
 * The argument being typed at the end of `input`, or undefined while the
 * name is still being typed (`/mo`) or the input is not a command line.
 * Arguments are separated by whitespace.
 */
export function argumentPosition(input: string): ArgumentPosition | undefined {
  const head = COMMAND_HEAD.exec(input);
  if (!head) return undefined;
  const rest = input.slice(head[0].length);
  const tokens = rest.split(/[ \t\r\n]+/).filter((token) => token !== '');
  const endsInSpace = rest === '' || /[ \t\r\n]$/.test(rest);
  const value = endsInSpace ? '' : (tokens.pop() ?? '');
  return {
    command: head[1]!,
    index: tokens.length,
    value,
    previous: tokens,
    start: input.length - value.length,
  };
}

/** The input with the argument at `position` replaced by `value`. */
export function takeValue(input: string, position: ArgumentPosition, value: string): string {
  return input.slice(0, position.start) + value;
}

/** A refused completion request: the status and the spec's error code. */
export class CompletionRequestError extends Error {
  override name = 'CompletionRequestError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface CompletionRequestOptions {
  /** Defaults to the global `fetch`. */
  fetch?: typeof fetch;
  /** Sent with the request: the agent's usual authentication, e.g. `Authorization`. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** POSTs one completion request to the card's endpoint. Throws {@link CompletionRequestError} on a refusal. */
export async function requestCompletion(
  endpoint: string,
  request: CompletionRequest,
  options: CompletionRequestOptions = {},
): Promise<CompletionResponse> {
  const response = await (options.fetch ?? fetch)(endpoint, {
    method: 'POST',
    headers: { ...options.headers, 'content-type': 'application/json' },
    body: JSON.stringify(request),
    signal: options.signal,
  });
  const body = (await response.json().catch(() => undefined)) as unknown;
  if (!response.ok) {
    const error =
      isObject(body) && isObject(body['error'])
        ? (body as unknown as CompletionErrorBody).error
        : undefined;
    throw new CompletionRequestError(
      response.status,
      error?.code ?? 'http-error',
      error?.message ?? `The completion request failed with HTTP ${response.status}.`,
    );
  }
  if (!isObject(body) || !Array.isArray(body['values'])) {
    throw new CompletionRequestError(
      response.status,
      'invalid-response',
      'The agent sent no values.',
    );
  }
  return {
    values: (body['values'] as unknown[]).flatMap((raw) => readValue(raw) ?? []),
    has_more: body['has_more'] === true,
  };
}

/** Values for the argument at the end of a command line. */
export interface ArgumentValues {
  position: ArgumentPosition;
  argument: ArgumentSpec;
  values: CompletionValue[];
  hasMore: boolean;
  /** `choices`: from the card, no request; `agent`: from the endpoint. */
  source: 'choices' | 'agent';
}

export interface CompleteArgumentOptions extends CompletionRequestOptions {
  /** The task the user is typing in, so values can depend on it. */
  taskId?: string;
  contextId?: string;
}

/**
 * Values for what `input` is typing after a command's name: the card's
 * choices, matched here, or the agent's values for a dynamic argument.
 * Undefined when the card offers nothing for that argument (fall back to the
 * command's `argument_hint`).
 */
export async function completeArgument(
  input: string,
  completion: CommandCompletionParams | undefined,
  options: CompleteArgumentOptions = {},
): Promise<ArgumentValues | undefined> {
  const position = argumentPosition(input);
  if (!position || !completion) return undefined;
  const command = completion.commands.find((entry) => entry.name === position.command);
  const argument = command?.arguments[position.index];
  if (!argument) return undefined;
  if (!argument.dynamic) {
    if (!argument.choices || argument.choices.length === 0) return undefined;
    const max = completion.max_values ?? DEFAULT_MAX_VALUES;
    const matched = matchValues(argument.choices, position.value, max);
    return {
      position,
      argument,
      values: matched.values,
      hasMore: matched.has_more,
      source: 'choices',
    };
  }
  const request: CompletionRequest = {
    command: position.command,
    argument: { index: position.index, value: position.value },
    arguments: position.previous,
  };
  if (options.taskId !== undefined) request.task_id = options.taskId;
  if (options.contextId !== undefined) request.context_id = options.contextId;
  const answer = await requestCompletion(completion.endpoint, request, options);
  return { position, argument, values: answer.values, hasMore: answer.has_more, source: 'agent' };
}
