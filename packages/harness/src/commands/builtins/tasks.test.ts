import { Role, TaskState } from '@a2a-js/sdk';
import { SUBTASK_METADATA_KEY } from 'a2a-commands';
import { describe, expect, it } from 'vitest';
import { withSettings } from '../../settings.js';
import { MAX_TASK_PAGES, TASKS_PAGE_SIZE, tasksCommand, type TaskEntry } from './tasks.js';
import {
  CONTEXT_ID,
  fakeServices,
  head,
  run,
  stubStore,
  TASK_ID,
  textMessage,
} from './test-context.js';

describe('/tasks', () => {
  it('lists the tasks of this context and marks the current one', async () => {
    const stub = stubStore([
      head('sub-1', TaskState.TASK_STATE_WORKING, withSettings({}, { title: '/spawn go' })),
      head(TASK_ID, TaskState.TASK_STATE_INPUT_REQUIRED, withSettings({}, { title: 'Plan' })),
      head('other', TaskState.TASK_STATE_COMPLETED, {}, 'ctx-other'),
      head('sub-2', TaskState.TASK_STATE_CANCELED, {}),
    ]);
    const services = fakeServices({ store: stub.store });
    const { result } = await run(tasksCommand, '', { services });

    expect(stub.listed[0]).toMatchObject({
      contextId: CONTEXT_ID,
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageToken: '',
      pageSize: TASKS_PAGE_SIZE,
    });
    const tasks = (result.data as { tasks: TaskEntry[] }).tasks;
    expect(tasks).toEqual([
      { id: 'sub-1', title: '/spawn go', state: 'TASK_STATE_WORKING', current: false },
      { id: TASK_ID, title: 'Plan', state: 'TASK_STATE_INPUT_REQUIRED', current: true },
      { id: 'sub-2', title: '(untitled)', state: 'TASK_STATE_CANCELED', current: false },
    ]);
    for (const task of tasks)
      expect(Object.keys(task)).toEqual(['id', 'title', 'state', 'current']);

    const lines = result.text.split('\n');
    expect(lines[0]).toContain('3 tasks');
    expect(lines.filter((line) => line.startsWith('*'))).toHaveLength(1);
    expect(lines.find((line) => line.startsWith('*'))).toContain(TASK_ID);
    expect(lines.find((line) => line.includes('sub-1'))).toMatch(
      /^ {2}sub-1 .*working .*\/spawn go$/,
    );
    expect(result.text).toContain('waiting for input');
    expect(result.text).not.toContain('other');
  });

  it('names the task each one came from, and shows sub-tasks and forks under it', async () => {
    const child = (parent: string, settings = {}) =>
      withSettings({ [SUBTASK_METADATA_KEY]: { parent } }, settings);
    const stub = stubStore([
      head('sub-1', TaskState.TASK_STATE_WORKING, child(TASK_ID, { title: '/spawn go' })),
      head('other', TaskState.TASK_STATE_INPUT_REQUIRED, withSettings({}, { title: 'Other' })),
      head('sub-of-sub', TaskState.TASK_STATE_COMPLETED, child('sub-1', { title: 'Deeper' })),
      head(TASK_ID, TaskState.TASK_STATE_INPUT_REQUIRED, withSettings({}, { title: 'Plan' })),
      head(
        'fork-1',
        TaskState.TASK_STATE_INPUT_REQUIRED,
        child(TASK_ID, { title: 'Fork of Plan', forkOf: TASK_ID }),
      ),
      head('orphan', TaskState.TASK_STATE_COMPLETED, child('gone', { title: 'Orphan' })),
    ]);
    const { result } = await run(tasksCommand, '', {
      services: fakeServices({ store: stub.store }),
    });

    const tasks = (result.data as { tasks: TaskEntry[] }).tasks;
    // The data keeps the listing's order (newest activity first), each with its link.
    expect(tasks.map(({ id, parent, fork }) => ({ id, parent, fork }))).toEqual([
      { id: 'sub-1', parent: TASK_ID, fork: undefined },
      { id: 'other', parent: undefined, fork: undefined },
      { id: 'sub-of-sub', parent: 'sub-1', fork: undefined },
      { id: TASK_ID, parent: undefined, fork: undefined },
      { id: 'fork-1', parent: TASK_ID, fork: true },
      { id: 'orphan', parent: 'gone', fork: undefined },
    ]);
    expect(Object.keys(tasks[1]!)).toEqual(['id', 'title', 'state', 'current']);

    // The text is a tree: no sub-task above its parent.
    // Titles start after the marker, the widest id and the widest state words.
    const titleColumn =
      2 + Math.max('sub-of-sub'.length, TASK_ID.length) + 2 + 'waiting for input'.length + 2;
    const titles = result.text
      .split('\n')
      .slice(1)
      .map((line) => line.slice(titleColumn));
    expect(titles).toEqual([
      'Other',
      'Plan',
      '↳ /spawn go',
      '  ↳ Deeper',
      '⑂ Fork of Plan',
      'Orphan',
    ]);
  });

  it('follows page tokens, up to a cap', async () => {
    const many = Array.from({ length: 250 }, (_, i) =>
      head(`t-${i}`, TaskState.TASK_STATE_COMPLETED),
    );
    const stub = stubStore(many);
    const { result } = await run(tasksCommand, '', {
      services: fakeServices({ store: stub.store }),
    });
    expect(stub.listed.map((r) => r.pageToken)).toEqual(['', '100', '200']);
    expect((result.data as { tasks: TaskEntry[] }).tasks).toHaveLength(250);

    const tooMany = Array.from({ length: TASKS_PAGE_SIZE * MAX_TASK_PAGES + 5 }, (_, i) =>
      head(`t-${i}`, TaskState.TASK_STATE_COMPLETED),
    );
    const capped = stubStore(tooMany);
    const out = await run(tasksCommand, '', { services: fakeServices({ store: capped.store }) });
    expect(capped.listed).toHaveLength(MAX_TASK_PAGES);
    expect((out.result.data as { tasks: TaskEntry[] }).tasks).toHaveLength(1000);
    expect(out.result.text).toContain('Only the 1000 most recently active are shown.');
  });

  it('names an untitled task by its first prompt, as the web chat does', async () => {
    const command = { ...textMessage('/model offline/echo'), metadata: { command: 'model' } };
    const long = `Plan   a\n trip ${'x'.repeat(80)}`;
    const stub = stubStore(
      [
        head(TASK_ID, TaskState.TASK_STATE_INPUT_REQUIRED),
        head('t-long', TaskState.TASK_STATE_COMPLETED),
        head('t-commands', TaskState.TASK_STATE_COMPLETED),
        head('t-titled', TaskState.TASK_STATE_COMPLETED, withSettings({}, { title: 'Mine' })),
      ],
      {
        // Commands and the agent's words are skipped: the first prompt names the task.
        [TASK_ID]: [
          command,
          textMessage('model set', Role.ROLE_AGENT),
          textMessage('Weekend trip'),
        ],
        't-long': [textMessage(long)],
        't-commands': [command],
        't-titled': [textMessage('not this')],
      },
    );
    const { result } = await run(tasksCommand, '', {
      services: fakeServices({ store: stub.store }),
    });
    const titles = (result.data as { tasks: TaskEntry[] }).tasks.map((task) => task.title);
    expect(titles).toEqual([
      'Weekend trip',
      // One line, at most 60 characters, the last one `…` when cut.
      `Plan a trip ${'x'.repeat(47)}…`,
      '(untitled)',
      'Mine',
    ]);
  });
});
