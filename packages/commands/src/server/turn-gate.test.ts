import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { describe, expect, it } from 'vitest';
import { TurnGate, TurnQueueFullError } from './turn-gate.js';

/** An executor whose turns end when the test says so. */
function controlledExecutor() {
  const finishers: (() => void)[] = [];
  const log: string[] = [];
  const executor: AgentExecutor = {
    execute: (context) =>
      new Promise<void>((resolve) => {
        log.push(`start ${context.userMessage.messageId}`);
        finishers.push(() => {
          log.push(`end ${context.userMessage.messageId}`);
          resolve();
        });
      }),
    cancelTask: async () => undefined,
  };
  return { executor, finishers, log };
}

const bus = {} as ExecutionEventBus;
const contextFor = (taskId: string, messageId: string) =>
  ({ taskId, userMessage: { messageId } }) as unknown as RequestContext;
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('TurnGate: one turn per task at a time (SEMANTICS §4)', () => {
  it('a second message waits until the first turn has ended, then runs', async () => {
    const gate = new TurnGate();
    const { executor, finishers, log } = controlledExecutor();
    const tracked = gate.track(executor);
    const run = (id: string) =>
      gate.admit('t', async () => void tracked.execute(contextFor('t', id), bus));

    await run('m1');
    const second = run('m2');
    await tick();
    expect(log).toEqual(['start m1']);
    expect(gate.queued('t')).toBe(1);

    finishers[0]!();
    await second;
    await tick();
    expect(log).toEqual(['start m1', 'end m1', 'start m2']);
    finishers[1]!();
    await tick();
    await tick();
    expect(gate.busy('t')).toBe(false);
  });

  it('turns on different tasks run side by side', async () => {
    const gate = new TurnGate();
    const { executor, log } = controlledExecutor();
    const tracked = gate.track(executor);
    await gate.admit('a', async () => void tracked.execute(contextFor('a', 'a1'), bus));
    await gate.admit('b', async () => void tracked.execute(contextFor('b', 'b1'), bus));
    expect(log).toEqual(['start a1', 'start b1']);
  });

  it('a message the SDK refuses before any turn starts frees the task at once', async () => {
    const gate = new TurnGate();
    await expect(gate.admit('t', () => Promise.reject(new Error('terminal')))).rejects.toThrow(
      'terminal',
    );
    await tick();
    expect(gate.busy('t')).toBe(false);
    await expect(gate.admit('t', async () => 'ok')).resolves.toBe('ok');
  });

  it('a turn that did not come through the gate (a new task) still holds later messages back', async () => {
    const gate = new TurnGate();
    const { executor, finishers, log } = controlledExecutor();
    const tracked = gate.track(executor);
    void tracked.execute(contextFor('new', 'first'), bus);
    const second = gate.admit(
      'new',
      async () => void tracked.execute(contextFor('new', 'second'), bus),
    );
    await tick();
    expect(log).toEqual(['start first']);
    finishers[0]!();
    await second;
    expect(log).toEqual(['start first', 'end first', 'start second']);
  });

  it('refuses a message past the queue limit with a clear error', async () => {
    const gate = new TurnGate(1);
    const { executor } = controlledExecutor();
    const tracked = gate.track(executor);
    await gate.admit('t', async () => void tracked.execute(contextFor('t', 'm1'), bus));
    void gate.admit('t', async () => undefined);
    await expect(gate.admit('t', async () => undefined)).rejects.toThrow(TurnQueueFullError);
  });
});
