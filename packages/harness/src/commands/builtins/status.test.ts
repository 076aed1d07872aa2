import { TaskState } from '@a2a-js/sdk';
import { SUBTASK_METADATA_KEY } from 'a2a-commands';
import { describe, expect, it } from 'vitest';
import { withSettings } from '../../settings.js';
import { statusCommand, type StatusData } from './status.js';
import { fakeServices, head, run, stubStore, TASK_ID } from './test-context.js';

const links = (subtasks: string[], parent?: string) => ({
  [SUBTASK_METADATA_KEY]: { ...(parent ? { parent } : {}), subtasks },
});

describe('/status', () => {
  it('describes a task without sub-tasks', async () => {
    const services = fakeServices({ queued: 2, busy: true });
    const metadata = withSettings(
      {},
      { title: 'Plan', turns: 3, usage: { inputTokens: 1200, outputTokens: 30 } },
    );
    const { result, fake } = await run(statusCommand, '', {
      services,
      metadata,
      state: TaskState.TASK_STATE_WORKING,
    });
    expect(fake.updates).toBe(0);
    const lines = result.text.split('\n');
    expect(lines[0]).toBe(`Task ${TASK_ID} "Plan"`);
    expect(lines).toContain('State: working (a model turn is running)');
    expect(lines).toContain('Model: offline/echo (the server default)');
    expect(lines).toContain('Turns: 3');
    expect(lines).toContain('Tokens: 1,200 in, 30 out');
    expect(lines).toContain('Queued messages: 2');
    expect(lines).toContain('Sub-tasks: none');
    const data = result.data as StatusData;
    expect(data).toMatchObject({
      id: TASK_ID,
      title: 'Plan',
      state: 'TASK_STATE_WORKING',
      model: 'offline/echo',
      defaultModel: true,
      turns: 3,
      running: true,
      queued: 2,
      subtasks: [],
      unreadable: 0,
    });
    expect(data.usage.total).toEqual({ inputTokens: 1200, outputTokens: 30 });
  });

  it("uses human words for states, e.g. 'waiting for input' and 'canceled'", async () => {
    const idle = await run(statusCommand, '', { state: TaskState.TASK_STATE_INPUT_REQUIRED });
    expect(idle.result.text).toContain('State: waiting for input');
    const canceled = await run(statusCommand, '', { state: TaskState.TASK_STATE_CANCELED });
    expect(canceled.result.text).toContain('State: canceled');
    expect((canceled.result.data as StatusData).state).toBe('TASK_STATE_CANCELED');
  });

  it('sums the usage of the task and of its sub-tasks, nested ones included', async () => {
    const { store, heads } = stubStore([
      head('sub-a', TaskState.TASK_STATE_COMPLETED, {
        ...withSettings(
          {},
          { title: 'Fork of Plan', turns: 1, usage: { inputTokens: 100, outputTokens: 10 } },
        ),
        ...links(['sub-c', TASK_ID], TASK_ID),
      }),
      head('sub-b', TaskState.TASK_STATE_WORKING, {
        ...withSettings({}, { usage: { inputTokens: 20, outputTokens: 2 } }),
        ...links([], TASK_ID),
      }),
      head('sub-c', TaskState.TASK_STATE_FAILED, {
        ...withSettings({}, { title: '/spawn x', usage: { inputTokens: 3, outputTokens: 1 } }),
        ...links(['sub-a'], 'sub-a'),
      }),
    ]);
    const services = fakeServices({ store });
    const metadata = {
      ...withSettings(
        {},
        { model: 'openai/gpt-4o', usage: { inputTokens: 1000, outputTokens: 100 } },
      ),
      ...links(['sub-a', 'sub-b', 'sub-gone']),
    };
    const { result } = await run(statusCommand, '', { services, metadata });
    const data = result.data as StatusData;

    expect(data.usage).toEqual({
      task: { inputTokens: 1000, outputTokens: 100 },
      subtasks: { inputTokens: 123, outputTokens: 13 },
      total: { inputTokens: 1123, outputTokens: 113 },
    });
    expect(data.subtasks.map((s) => [s.id, s.parent, s.depth, s.state, s.title])).toEqual([
      ['sub-a', TASK_ID, 1, 'TASK_STATE_COMPLETED', 'Fork of Plan'],
      ['sub-b', TASK_ID, 1, 'TASK_STATE_WORKING', null],
      ['sub-c', 'sub-a', 2, 'TASK_STATE_FAILED', '/spawn x'],
    ]);
    expect(data.unreadable).toBe(1);
    // Each task is read once, the cycles back to sub-a and to this task are not followed.
    expect(heads.sort()).toEqual(['sub-a', 'sub-b', 'sub-c', 'sub-gone']);

    expect(result.text).toContain('Model: openai/gpt-4o\n');
    expect(result.text).toContain(
      'Tokens: 1,123 in, 113 out (this task 1,000 in, 100 out; sub-tasks 123 in, 13 out)',
    );
    expect(result.text).toContain('Sub-tasks (3):');
    expect(result.text).toContain('  - sub-a "Fork of Plan": completed');
    expect(result.text).toContain('  - sub-b (untitled): working');
    expect(result.text).toContain('    - sub-c "/spawn x": failed');
    expect(result.text).toContain('Not counted: 1 sub-task that could not be read.');
  });
});
