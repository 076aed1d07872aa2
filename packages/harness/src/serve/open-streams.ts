import type { SendMessageRequest, StreamResponse, SubscribeToTaskRequest } from '@a2a-js/sdk';
import { UnsupportedOperationError } from '@a2a-js/sdk/errors';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import type { Logger } from 'pino';
import { requestLog, responseOf } from '../request-scope.js';
import type { ApiKeys } from './api-keys.js';
import { Principal } from './auth.js';
import { ForwardingHandler } from './forwarding-handler.js';
import { limitWords } from '../config/limit-words.js';

export const REVOKED_STREAM_MESSAGE =
  'Unauthenticated: the API key this stream was opened with has been revoked; the stream is closed.';

export interface OpenStreamLimits {
  /** SSE streams one principal may hold open at once (without keys, all callers are one principal). */
  streamsPerPrincipal: number;
  /** Bytes written to one stream that its client has not taken yet; past them it is dropped. */
  streamBufferBytes: number;
}

interface OpenStream {
  keyDigest: Buffer | undefined;
  /** Ends the stream with `error` at its next step, or at once if it waits. */
  end(error: Error): void;
}

/** Who a stream counts against: its principal, or everyone together without keys. */
const ANYONE = '';

/**
 * Every SSE stream (SendStreamingMessage, SubscribeToTask) passes here:
 * - a principal may hold `streamsPerPrincipal` at once; the next is refused;
 * - a stream whose key is revoked (a key reload) ends with an error event;
 * - a stream whose client does not read is dropped once `streamBufferBytes`
 *   wait unsent, so that a stalled reader cannot hold the server's memory.
 */
export class OpenStreams extends ForwardingHandler {
  private readonly byPrincipal = new Map<string, Set<OpenStream>>();

  constructor(
    inner: A2ARequestHandler,
    private readonly limits: OpenStreamLimits,
    private readonly logger: Logger,
    keys?: ApiKeys,
  ) {
    super(inner);
    keys?.onReplaced(() => this.endRevoked(keys));
  }

  override sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    return this.track(context, () => this.inner.sendMessageStream(params, context));
  }

  override resubscribe(
    params: SubscribeToTaskRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    return this.track(context, () => this.inner.resubscribe(params, context));
  }

  /** Streams open now, all principals together. */
  get size(): number {
    let size = 0;
    for (const streams of this.byPrincipal.values()) size += streams.size;
    return size;
  }

  /** After a key reload: every stream opened with a key that is no longer its principal's ends. */
  private endRevoked(keys: ApiKeys): void {
    let ended = 0;
    for (const [principal, streams] of this.byPrincipal) {
      for (const stream of streams) {
        if (stream.keyDigest && keys.stillHolds(stream.keyDigest, principal)) continue;
        stream.end(new UnsupportedOperationError(REVOKED_STREAM_MESSAGE));
        ended++;
      }
    }
    if (ended > 0) this.logger.info({ streams: ended }, 'ended the streams of revoked keys');
  }

  private async *track(
    context: ServerCallContext,
    open: () => AsyncGenerator<StreamResponse, void, undefined>,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const user = context.user;
    const principal = user instanceof Principal ? user.userName : ANYONE;
    let streams = this.byPrincipal.get(principal);
    if (!streams) this.byPrincipal.set(principal, (streams = new Set()));
    if (streams.size >= this.limits.streamsPerPrincipal) {
      throw new UnsupportedOperationError(limitWords.streamsPerPrincipal(streams.size));
    }
    let ending: Error | undefined;
    let wake: (() => void) | undefined;
    const stream: OpenStream = {
      keyDigest: user instanceof Principal ? user.keyDigest : undefined,
      end: (error) => {
        ending ??= error;
        wake?.();
      },
    };
    streams.add(stream);
    const res = responseOf(context);
    const inner = open();
    let finished = false;
    try {
      let next = inner.next();
      for (;;) {
        const woken = new Promise<'ended'>((resolve) => (wake = () => resolve('ended')));
        const step = await Promise.race([next, woken]);
        wake = undefined;
        if (ending) throw ending;
        if (step === 'ended') continue;
        if (step.done) {
          finished = true;
          return;
        }
        yield step.value;
        // The SDK has written the event by the time it asks for the next one.
        if (res && res.writableLength > this.limits.streamBufferBytes) {
          requestLog(context, this.logger).warn(
            { buffered: res.writableLength, limit: this.limits.streamBufferBytes },
            'dropped a stream whose client does not read (limits.streamBufferBytes)',
          );
          res.destroy();
          return;
        }
        next = inner.next();
      }
    } finally {
      streams.delete(stream);
      if (streams.size === 0 && this.byPrincipal.get(principal) === streams)
        this.byPrincipal.delete(principal);
      // A stream waiting on an idle task may never settle; do not wait for it to close.
      if (!finished) void inner.return(undefined).catch(() => undefined);
    }
  }
}
