import type { StreamResponse } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { LiveStreams } from './live-streams.js';

const statusFor = (taskId: string, tag: string): StreamResponse => ({
  payload: {
    $case: 'statusUpdate',
    value: { taskId, contextId: 'c', status: undefined, metadata: { tag } },
  },
});
const taskEvent = (id: string): StreamResponse => ({
  payload: {
    $case: 'task',
    value: { id, contextId: 'c', status: undefined, history: [], artifacts: [], metadata: {} },
  },
});
const tagOf = (event: StreamResponse | undefined) =>
  event?.payload?.$case === 'statusUpdate'
    ? event.payload.value.metadata?.tag
    : event?.payload?.$case;

/** A stream the test feeds by hand. */
function manualStream() {
  const queue: (StreamResponse | null)[] = [];
  let wake: (() => void) | undefined;
  async function* stream(): AsyncGenerator<StreamResponse, void, undefined> {
    for (;;) {
      while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const next = queue.shift()!;
      if (next === null) return;
      yield next;
    }
  }
  return {
    stream: stream(),
    push: (event: StreamResponse | null) => {
      queue.push(event);
      wake?.();
    },
  };
}

describe('LiveStreams: replies reach open streams without disturbing them (SEMANTICS §3)', () => {
  it('slips published events into a stream after its first event, and the stream still ends on its own', async () => {
    const live = new LiveStreams();
    const { stream, push } = manualStream();
    const followed = live.follow(stream);
    expect(live.publish('t', statusFor('t', 'too early')).delivered).toBe(0);

    push(taskEvent('t'));
    expect(tagOf((await followed.next()).value as StreamResponse)).toBe('task');
    expect(live.count('t')).toBe(1);

    expect(live.publish('t', statusFor('t', 'reply')).delivered).toBe(1);
    expect(tagOf((await followed.next()).value as StreamResponse)).toBe('reply');

    push(statusFor('t', 'turn goes on'));
    expect(tagOf((await followed.next()).value as StreamResponse)).toBe('turn goes on');
    push(null);
    expect((await followed.next()).done).toBe(true);
    expect(live.count('t')).toBe(0);
  });

  it('publishes only to streams of the same task', async () => {
    const live = new LiveStreams();
    const a = manualStream();
    const followed = live.follow(a.stream, 'a');
    a.push(taskEvent('a'));
    await followed.next();
    expect(live.publish('b', statusFor('b', 'x')).delivered).toBe(0);
    expect(live.publish('a', statusFor('a', 'y')).delivered).toBe(1);
  });

  it('a client that goes away is detached', async () => {
    const live = new LiveStreams();
    const { stream, push } = manualStream();
    const followed = live.follow(stream, 't');
    push(taskEvent('t'));
    await followed.next();
    await followed.return(undefined);
    expect(live.count('t')).toBe(0);
  });

  it('hands every published event to the relay, and delivers what the relay brings back to local streams only', async () => {
    const relayed: [string, unknown][] = [];
    const here = new LiveStreams({ send: (taskId, event) => relayed.push([taskId, tagOf(event)]) });
    const { stream, push } = manualStream();
    const followed = here.follow(stream, 't');
    push(taskEvent('t'));
    await followed.next();

    expect(here.publish('t', statusFor('t', 'from this process')).delivered).toBe(1);
    expect(tagOf((await followed.next()).value as StreamResponse)).toBe('from this process');
    expect(here.publish('idle', statusFor('idle', 'nobody here')).delivered).toBe(0);
    expect(relayed).toEqual([
      ['t', 'from this process'],
      ['idle', 'nobody here'],
    ]);

    expect(here.deliver('t', statusFor('t', 'from another process'))).toBe(1);
    expect(tagOf((await followed.next()).value as StreamResponse)).toBe('from another process');
    expect(relayed).toHaveLength(2);
  });
});
