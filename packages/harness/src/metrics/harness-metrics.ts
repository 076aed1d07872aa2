import type { CommandDone } from 'a2a-commands/server';

/**
 * What the harness counts and times, as calls. The turn path, the command
 * path and the store report through this interface only; `PrometheusMetrics`
 * turns the calls into `/metrics`, and `NO_METRICS` ignores them.
 */

/** How a command request went, as the command path reports it: its reply, or a protocol error. */
export type CommandOutcome = CommandDone;

/**
 * How a turn that started running ended:
 * - `answered`: the model's answer was stored;
 * - `model_error`: the model call failed, and the error was stored as the answer;
 * - `stopped`: `/stop` ended it, its answer so far kept;
 * - `canceled`: CancelTask stopped it;
 * - `shutdown`: the server stopped while it ran;
 * - `failed`: it failed outside the model call (the turn handler ends it with a note);
 * - `abandoned`: it stored no ending here (the task was gone or ended, or another instance took it over).
 */
export type TurnEnding =
  'answered' | 'model_error' | 'stopped' | 'canceled' | 'shutdown' | 'failed' | 'abandoned';

/** Read when `/metrics` is scraped, not pushed. */
export interface GaugeSources {
  /** Turns waiting behind a running turn, over all tasks. */
  queueDepth(): number | Promise<number>;
  /** SSE streams open now: SendStreamingMessage and SubscribeToTask. */
  openStreams(): number;
}

export interface HarnessMetrics {
  /** A command request ended; `seconds` from the command path's parse of it to its reply or refusal. */
  commandRan(name: string, outcome: CommandOutcome, seconds: number): void;
  /** A command's handler threw something other than a CommandError; its reply says it failed. */
  commandFailed(name: string): void;
  turnEnded(ending: TurnEnding): void;
  /** Seconds from the start of a turn's run to the model's first text. */
  firstToken(seconds: number): void;
  /** A model call failed; `provider` is the part of the model id before the slash. */
  modelError(provider: string): void;
  /** Seconds one task write spent in its database transaction. */
  dbWrite(seconds: number): void;
  /** Where the gauges are read from; called once, when the parts they read exist. */
  readGauges(sources: GaugeSources): void;
}

/** Metrics that go nowhere: for code built without a metrics registry (tests, tools). */
export const NO_METRICS: HarnessMetrics = Object.freeze({
  commandRan: () => undefined,
  commandFailed: () => undefined,
  turnEnded: () => undefined,
  firstToken: () => undefined,
  modelError: () => undefined,
  dbWrite: () => undefined,
  readGauges: () => undefined,
});

/** Seconds since `start`, a `process.hrtime.bigint()` reading. */
export function secondsSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}
