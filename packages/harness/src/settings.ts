import { HARNESS_METADATA_KEY } from 'a2a-chat-core';

/**
 * Per-task settings, kept in `Task.metadata` under one namespaced key so they
 * travel with the task through every store and never collide with a client's keys.
 */
export const SETTINGS_KEY = HARNESS_METADATA_KEY;

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface TaskSettings {
  /** `<provider>/<model>`; the server default when unset. */
  model?: string;
  title?: string;
  /** The system prompt; none when unset. */
  system?: string;
  /** Model turns completed on this task. */
  turns?: number;
  /** Tokens used by this task's own turns. */
  usage?: TokenUsage;
  /** `/clear`: turns start their context after this many history entries. */
  contextStart?: number;
  /** `/fork`: the task this one was copied from (its parent link says only "sub-task"). */
  forkOf?: string;
}

type Metadata = Record<string, unknown>;

export function settingsOf(metadata: Readonly<Metadata> | undefined): TaskSettings {
  const value = metadata?.[SETTINGS_KEY];
  return value && typeof value === 'object' ? (value as TaskSettings) : {};
}

/** A copy of `metadata` with `patch` merged into its settings; `undefined` values remove keys. */
export function withSettings(
  metadata: Readonly<Metadata> | undefined,
  patch: Partial<TaskSettings>,
): Metadata {
  const merged: Record<string, unknown> = { ...settingsOf(metadata), ...patch };
  for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
  return { ...metadata, [SETTINGS_KEY]: merged };
}
