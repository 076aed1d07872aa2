import type { Message, TaskState } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { CompletionValue } from './completion/spec.js';

export type TaskMetadata = Record<string, unknown>;

/** A read view of the task a command runs on: no history unless asked for. */
export interface TaskView {
  readonly id: string;
  readonly contextId: string;
  readonly state: TaskState;
  readonly metadata: Readonly<TaskMetadata>;
  /** True when this command's message created the task (SEMANTICS §4). */
  readonly created: boolean;
  /** Loads the task's history. Costs O(history): only commands that need it should call it. */
  loadHistory(): Promise<Message[]>;
}

/** Who sent the command, as the server's user builder saw them. */
export interface Caller {
  readonly name: string;
  readonly authenticated: boolean;
}

export interface SubtaskInit {
  /** Messages the sub-task starts with, e.g. a copy of the parent's conversation. */
  history?: Message[];
  /** Extra metadata for the sub-task; the parent link is added by the library. */
  metadata?: TaskMetadata;
  /** When given, sent to the agent as the sub-task's first ordinary message; it runs on its own. */
  prompt?: string;
}

export interface CommandContext {
  /** The registered name, without the slash. */
  readonly name: string;
  /** SEMANTICS §2: everything after the whitespace that follows the name, trailing whitespace removed. */
  readonly args: string;
  /** The command message itself. */
  readonly message: Message;
  readonly task: TaskView;
  readonly caller: Caller;
  /** Aborted when the server shuts down or the request is abandoned. */
  readonly signal: AbortSignal;
  /** The SDK's call context, for extensions that need headers or the tenant. */
  readonly callContext: ServerCallContext;
  /**
   * Read-modify-write of the task's metadata, applied to the stored metadata in the
   * same atomic write as the reply; returns the result on this command's snapshot.
   * `update` may run more than once, so it must be pure.
   */
  updateMetadata(update: (current: TaskMetadata) => TaskMetadata): Promise<TaskMetadata>;
  /**
   * Creates a sub-task linked to this one (SEMANTICS §7) and returns its view at once.
   * It is stored with the reply, and its prompt is sent after that.
   */
  createSubtask(init?: SubtaskInit): Promise<TaskView>;
}

export interface CommandResult {
  /** What a person reads. Required: SEMANTICS §3 asks for at least one text part. */
  text: string;
  /** The same content in structured form, sent as a data part. */
  data?: unknown;
  /** The id of a sub-task this command created. */
  task_ref?: string;
}

export type CommandRun = (
  context: CommandContext,
) => CommandResult | string | Promise<CommandResult | string>;

export interface CommandDefinition {
  name: string;
  description: string;
  argument_hint?: string;
  /** Positional arguments, for the command completion extension; none when absent. */
  arguments?: CommandArgument[];
  /**
   * Who may run it (SEMANTICS §9). Absent: everyone, and the public card lists
   * it. Present: only the callers it answers true for; for anyone else the
   * command is not registered (its text is an ordinary message), and only the
   * extended card of a caller it allows lists it.
   */
  allowed?: (caller: Caller) => boolean;
  run: CommandRun;
}

/** What a completer is told: the argument being typed, and who is typing it. */
export interface CompletionContext {
  /** The command's name, without the slash. */
  readonly command: string;
  /** The argument's position, from 0. */
  readonly index: number;
  /** What has been typed of it so far. */
  readonly value: string;
  /** The arguments before it, as typed. */
  readonly previous: readonly string[];
  readonly caller: Caller;
  /** The task the user is typing in, when the request named one the caller may see. */
  readonly task?: { readonly id: string; readonly contextId: string };
  /** The conversation: the task's, or the one the request named. */
  readonly contextId?: string;
  /** The SDK's call context: pass it to the task store so reads are scoped to the caller. */
  readonly callContext: ServerCallContext;
  readonly signal: AbortSignal;
}

/**
 * Computes values for one argument. It may return every value: the library
 * matches them against what was typed and applies the cap. It must only read.
 */
export type ArgumentCompleter = (
  context: CompletionContext,
) => CompletionValue[] | Promise<CompletionValue[]>;

/** One positional argument of a command. */
export interface CommandArgument {
  name: string;
  description?: string;
  /** Fixed values, published on the card. */
  choices?: CompletionValue[];
  /** Values that depend on the caller or the task, asked for while the user types. */
  complete?: ArgumentCompleter;
}

/** A command as the registry keeps it: validated, with its hint defaulted. */
export interface RegisteredCommand extends CommandDefinition {
  readonly argument_hint: string;
}
