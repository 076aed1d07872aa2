/**
 * The Command completion extension v1 (docs/spec/command-completion-v1.txt):
 * a companion to the Commands extension, with its own card entry.
 */
export const COMMAND_COMPLETION_EXTENSION_URI =
  'https://madarauchiha-314.github.io/tiny-harness/a2a/ext/command-completion/v1';

/** Where this library serves the completion route, beside the A2A bindings. */
export const DEFAULT_COMPLETION_PATH = '/a2a/complete';

/** The most values one response carries unless the server says otherwise. */
export const DEFAULT_MAX_VALUES = 50;

/** One value offered for an argument. */
export interface CompletionValue {
  value: string;
  description?: string;
}

/** One positional argument, as the card lists it. */
export interface ArgumentSpec {
  name: string;
  description?: string;
  /** Fixed values: a client offers them without asking. */
  choices?: CompletionValue[];
  /** True when values come from the endpoint, computed for the caller. */
  dynamic?: boolean;
}

/** A command's positional arguments on the card. */
export interface CommandArguments {
  name: string;
  arguments: ArgumentSpec[];
}

/** The extension's `params` on the agent card. */
export interface CommandCompletionParams {
  endpoint: string;
  max_values?: number;
  commands: CommandArguments[];
}

/** The body POSTed to `params.endpoint`. */
export interface CompletionRequest {
  command: string;
  argument: { index: number; value: string };
  /** The arguments before the one being typed. */
  arguments?: string[];
  task_id?: string;
  context_id?: string;
}

/** The endpoint's answer. */
export interface CompletionResponse {
  values: CompletionValue[];
  has_more: boolean;
}

/** The body of a refused request. */
export interface CompletionErrorBody {
  error: { code: string; message: string };
}
