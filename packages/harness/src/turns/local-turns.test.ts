import { ServerCallContext } from '@a2a-js/sdk/server';
import { describe, expect, it } from 'vitest';
import { TaskState } from '@a2a-js/sdk';
import { LocalTurns } from './local-turns.js';
import { TaskEvents } from './task-events.js';
import { abortReasonOf, type Turn } from './turn.js';
import type { TurnEndings } from './turn-endings.js';
import { status } from './turn-events.js';
import type { HarnessTaskStore } from '../store/index.js';

const context = new ServerCallContext();

/** LocalTurns with a runner that holds each turn until the test lets it go. */
function scheduler() {
  const started: Turn[] = [];
  const release = new Map<string, () => void>();
  const announced: { turnIds: readonly string[] }[] = [];
  const endings = {
    announce: (_task: unknown, _status: unknown, turnIds: readonly string[]) =>
      announced.push({ turnIds }),
  } as unknown as TurnEndings;
  const turns = new LocalTurns({
    store: {} as HarnessTaskStore,
    events: new TaskEvents(),
    endings,
    run: async (turn) => {
      started.push(turn);
      await new Promise<void>((resolve) => {
        release.set(turn.turnId, resolve);
        turn.abort.signal.addEventListener('abort', () => resolve());
      });
    },
  });
  const finish = async (turnId: string) => {
    release.get(turnId)!();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { turns, started, finish, announced };
}

describe('LocalTurns', () => {
  it('runs one turn per task at a time, in arrival order; other tasks run alongside', async () => {
    const { turns, started, finish } = scheduler();
    void turns.start({ taskId: 't1', turnId: 'a' }, context);
    void turns.start({ taskId: 't1', turnId: 'b' }, context);
    void turns.start({ taskId: 't2', turnId: 'c' }, context);
    expect(started.map((t) => t.turnId)).toEqual(['a', 'c']);
    expect(await turns.busy('t1')).toBe(true);
    expect(await turns.queued('t1')).toBe(1);
    await finish('a');
    expect(started.map((t) => t.turnId)).toEqual(['a', 'c', 'b']);
    expect(await turns.queued('t1')).toBe(0);
  });

  it('stop aborts the running turn as stopped, and the next one then runs', async () => {
    const { turns, started } = scheduler();
    void turns.start({ taskId: 't1', turnId: 'a' }, context);
    void turns.start({ taskId: 't1', turnId: 'b' }, context);
    expect(await turns.stop('t1')).toBe(true);
    expect(abortReasonOf(started[0]!)).toBe('stopped');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(started.map((t) => t.turnId)).toEqual(['a', 'b']);
  });

  it('stop with no turn running changes nothing', async () => {
    const { turns } = scheduler();
    expect(await turns.stop('idle')).toBe(false);
  });

  it('cancel writes first, aborts the running turn as canceled, drops the waiting ones, and ends every stream', async () => {
    const { turns, started, announced } = scheduler();
    void turns.start({ taskId: 't1', turnId: 'a' }, context);
    const waiting = turns.start({ taskId: 't1', turnId: 'b' }, context);
    let abortedWhenWritten: boolean | undefined;
    await turns.cancel({ id: 't1', contextId: 'c' }, async () => {
      abortedWhenWritten = started[0]!.abort.signal.aborted;
      return {
        id: 't1',
        contextId: 'c',
        status: status(TaskState.TASK_STATE_CANCELED),
        metadata: {},
      };
    });
    expect(abortedWhenWritten).toBe(false);
    expect(abortReasonOf(started[0]!)).toBe('canceled');
    expect(announced).toEqual([{ turnIds: ['a', 'b'] }]);
    await waiting;
    expect(started.map((t) => t.turnId)).toEqual(['a']);
  });
});
