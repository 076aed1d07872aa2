import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { TaskState, type StreamResponse, type Task } from '@a2a-js/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { KnownTask } from '../src/a2a/known-tasks.js';
import { CARD_REFRESH_MS, cardRefreshMs, reconnectDelayMs } from '../src/a2a/live-agent.js';
import type { AgentSession } from '../src/a2a/session.js';
import { useLiveAgent } from '../src/state/use-live-agent.js';
import { useTaskList } from '../src/state/use-task-list.js';
import { showsActivity } from '../src/state/use-task-watch.js';
import { task } from './fixtures.js';

/*
 * Keeping up with the agent: the card's refresh period, the
 * reconnect backoff, what counts as another client's activity, the outage and
 * the recovery as the hook sees them, and the task list during an outage.
 */

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const offline = () => new TypeError('Failed to fetch');

describe('the schedule', () => {
  it('reads the card every 12 s, or every ?refresh= seconds (not under a quarter second)', () => {
    expect(cardRefreshMs({ search: '' })).toBe(CARD_REFRESH_MS);
    expect(CARD_REFRESH_MS).toBe(12_000);
    expect(cardRefreshMs({ search: '?refresh=1' })).toBe(1000);
    expect(cardRefreshMs({ search: '?refresh=0.01' })).toBe(250);
    expect(cardRefreshMs({ search: '?refresh=soon' })).toBe(CARD_REFRESH_MS);
    expect(cardRefreshMs({ search: '?refresh=-3' })).toBe(CARD_REFRESH_MS);
  });

  it('retries an agent that is down after 0.5, 1, 2, 4, then 8 s each time', () => {
    expect([0, 1, 2, 3, 4, 5, 10].map(reconnectDelayMs)).toEqual([
      500, 1000, 2000, 4000, 8000, 8000, 8000,
    ]);
  });
});

describe('showsActivity: another client at work on the open task', () => {
  const snapshot = (state: number): StreamResponse => ({
    payload: { $case: 'task', value: task(state, []) },
  });
  const statusUpdate: StreamResponse = {
    payload: {
      $case: 'statusUpdate',
      value: {
        taskId: 't1',
        contextId: 'c1',
        status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: undefined },
        metadata: undefined,
      },
    },
  };

  it('an idle first snapshot is not; a running one is', () => {
    expect(showsActivity(snapshot(TaskState.TASK_STATE_INPUT_REQUIRED), true)).toBe(false);
    expect(showsActivity(snapshot(TaskState.TASK_STATE_WORKING), true)).toBe(true);
  });

  it('any event after the first is: a turn starting, a command reply', () => {
    expect(showsActivity(statusUpdate, false)).toBe(true);
    expect(showsActivity(statusUpdate, true)).toBe(true);
  });
});

/**
 * A session, and the agent's card endpoint as `fetch` sees it: each read of the
 * card takes the next of `answers` (the last one repeats): `same` is a 304,
 * `new` a card with other commands (and a new ETag), `down` a fetch that fails.
 */
function sessionReading(answers: Array<() => 'same' | 'new' | 'down'>): {
  session: AgentSession;
  reads: () => number;
} {
  let call = 0;
  let version = 1;
  const fetchCard = vi.fn(async (_url: unknown, init?: RequestInit) => {
    const answer = answers[Math.min(call++, answers.length - 1)]!();
    if (answer === 'down') throw offline();
    if (answer === 'new') version += 1;
    const etag = `"v${version}"`;
    if (new Headers(init?.headers).get('if-none-match') === etag)
      return new Response(null, { status: 304 });
    return new Response(JSON.stringify({ ...CARD, version: String(version) }), {
      headers: { etag, 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchCard);
  const session = {
    url: 'http://agent.test',
    cardEtag: '"v1"',
    takeCard: vi.fn(async () => true),
  } as unknown as AgentSession;
  return { session, reads: () => fetchCard.mock.calls.length };
}

const CARD = {
  name: 'agent',
  description: '',
  supportedInterfaces: [],
  capabilities: {},
  defaultInputModes: [],
  defaultOutputModes: [],
  skills: [],
};

describe('useLiveAgent', () => {
  it('moves cardVersion when a re-read finds new commands', async () => {
    vi.useFakeTimers();
    const { session } = sessionReading([() => 'same', () => 'new', () => 'same']);
    const { result } = renderHook(() => useLiveAgent(session, 1000));
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(result.current.cardVersion).toBe(0);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(result.current.cardVersion).toBe(1);
    expect(result.current.offline).toBeUndefined();
  });

  it('reads the card at once when the window gets focus', async () => {
    vi.useFakeTimers();
    const { session } = sessionReading([() => 'new']);
    const { result } = renderHook(() => useLiveAgent(session, 60_000));
    await act(async () => {
      window.dispatchEvent(new Event('focus'));
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(result.current.cardVersion).toBe(1);
  });

  it('an unreachable agent is offline, retried with backoff, and its return moves reconnects', async () => {
    vi.useFakeTimers();
    let up = true;
    const { session, reads } = sessionReading([() => (up ? 'same' : 'down')]);
    const { result } = renderHook(() => useLiveAgent(session, 10_000));
    up = false;
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(result.current.offline?.title).toBe("Can't reach the agent");
    expect(reads()).toBe(1);
    // Retried after 0.5 s, then 1 s: well before the 10 s period.
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(reads()).toBe(2);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(reads()).toBe(3);
    expect(result.current.reconnects).toBe(0);
    up = true;
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(result.current.offline).toBeUndefined();
    expect(result.current.reconnects).toBe(1);
  });

  it('an outage another call reports is checked at once; a refusal is not an outage', async () => {
    vi.useFakeTimers();
    const { session, reads } = sessionReading([() => 'down']);
    const { result } = renderHook(() => useLiveAgent(session, 60_000));
    act(() =>
      result.current.reportUnreachable({
        title: 'Could not open the task',
        detail: '',
        unreachable: false,
      }),
    );
    expect(result.current.offline).toBeUndefined();
    await act(async () => {
      result.current.reportUnreachable({
        title: "Can't reach the agent",
        detail: '',
        unreachable: true,
      });
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(result.current.offline?.unreachable).toBe(true);
    expect(reads()).toBe(1);
  });

  it('an agent that answers again after another call reported it down moves reconnects', async () => {
    vi.useFakeTimers();
    const { session, reads } = sessionReading([() => 'same']);
    const { result } = renderHook(() => useLiveAgent(session, 60_000));
    await act(async () => {
      result.current.reportUnreachable({
        title: "Can't reach the agent",
        detail: 'The stream broke.',
        unreachable: true,
      });
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(reads()).toBe(1);
    expect(result.current.offline).toBeUndefined();
    expect(result.current.reconnects).toBe(1);
  });
});

describe('useTaskList during an outage', () => {
  const listed = (id: string, parent?: string): Task => ({
    ...task(6, [], parent ? { 'a2a-commands': { parent } } : {}),
    id,
    contextId: 'ctx-1',
  });

  it('keeps the last listing, so sub-tasks stay under their parents, and says why', async () => {
    let up = true;
    const session = {
      url: 'http://agent.test',
      listContext: vi.fn(async () => {
        if (!up) throw offline();
        return [listed('parent'), listed('child', 'parent')];
      }),
      listContextByCommand: vi.fn(async () => []),
    } as unknown as AgentSession;
    const known: KnownTask[] = [{ id: 'parent', contextId: 'ctx-1', title: 'the parent', seen: 1 }];
    const { result } = renderHook(() => useTaskList(session, known));
    await waitFor(() => expect(result.current.rows.map((row) => row.depth)).toEqual([0, 1]));
    up = false;
    act(() => result.current.refresh());
    await waitFor(() => expect(result.current.problem?.unreachable).toBe(true));
    expect(result.current.rows.map((row) => [row.id, row.depth])).toEqual([
      ['parent', 0],
      ['child', 1],
    ]);
  });
});
