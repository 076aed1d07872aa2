import type { StreamResponse } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { reconnectDelayMs } from 'a2a-chat-core';
import { commandRequestOptions } from 'a2a-commands/client';
import { AgentGoneError, describeError, isUnreachable } from './errors.js';

/** How a stream ended: with its turn ('ended'), cut off before that ('lost'), or by the bridge. */
export type StreamOutcome = 'ended' | 'lost' | 'aborted';

/** Where a followed task's events go: the session's transcript. */
export interface EventSink {
  apply(event: StreamResponse, adopt: boolean): void;
  /** Whether the task's turn still runs, as the events so far say. */
  running(): boolean;
}

export interface ReadOptions {
  signal: AbortSignal;
  /** The stream starts the session's next task. */
  adopt?: boolean;
  /** A command's stream ends after its reply, whatever the task's state. */
  command?: boolean;
}

/**
 * Reads one A2A stream into `sink`. A stream that fails before its first
 * event fails the caller (the agent refused or cannot be reached); one that
 * fails, or ends while the turn still runs, after that is 'lost', to follow again.
 */
export async function readStream(
  events: AsyncIterable<StreamResponse>,
  sink: EventSink,
  { signal, adopt = false, command = false }: ReadOptions,
): Promise<StreamOutcome> {
  let seen = false;
  try {
    for await (const event of events) {
      seen = true;
      sink.apply(event, adopt);
      if (signal.aborted) return 'aborted';
    }
  } catch (error) {
    if (signal.aborted) return 'aborted';
    if (!seen) throw error;
    return 'lost';
  }
  if (signal.aborted) return 'aborted';
  return command || !sink.running() ? 'ended' : 'lost';
}

export interface FollowOptions {
  signal: AbortSignal;
  /** How long the agent may stay unreachable before the answer is given up. */
  giveUpAfterMs: number;
  /** Read the task at once, not after the first retry delay. */
  immediate?: boolean;
  log: (line: string) => void;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/**
 * A lost stream followed again, the way the chats reconnect: after a growing
 * delay the task is read with GetTask (its history and answer so far), and
 * while its turn runs, SubscribeToTask carries on. An agent that stays
 * unreachable for `giveUpAfterMs` fails with {@link AgentGoneError}.
 */
export async function followAgain(
  client: Client,
  taskId: string,
  sink: EventSink,
  { signal, giveUpAfterMs, immediate = false, log }: FollowOptions,
): Promise<'ended' | 'aborted'> {
  let attempt = immediate ? -1 : 0;
  let deadline = Date.now() + giveUpAfterMs;
  let lastError: unknown;
  while (!signal.aborted) {
    if (Date.now() > deadline) {
      throw new AgentGoneError(
        `The agent stopped answering mid-answer and could not be reached again for ${Math.round(giveUpAfterMs / 1000)} s: ${describeError(lastError)}`,
      );
    }
    if (attempt >= 0) await sleep(reconnectDelayMs(attempt), signal);
    attempt += 1;
    if (signal.aborted) break;
    try {
      const options = commandRequestOptions({ signal });
      const task = await client.getTask(
        { tenant: '', id: taskId, historyLength: undefined },
        options,
      );
      sink.apply({ payload: { $case: 'task', value: task } }, false);
      if (!sink.running()) return 'ended';
      log(`following task ${taskId} again`);
      const outcome = await readStream(
        client.resubscribeTask({ tenant: '', id: taskId }, options),
        sink,
        { signal },
      );
      if (outcome !== 'lost') return outcome;
      attempt = 0;
      deadline = Date.now() + giveUpAfterMs;
    } catch (error) {
      if (signal.aborted) break;
      if (!isUnreachable(error)) throw error;
      lastError = error;
      log(`the agent cannot be reached: ${describeError(error)}`);
    }
  }
  return 'aborted';
}
