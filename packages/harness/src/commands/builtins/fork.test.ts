import { Role, TaskState } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { SETTINGS_KEY, settingsOf, withSettings } from '../../settings.js';
import { forkCommand } from './fork.js';
import { run, TASK_ID, textMessage } from './test-context.js';

const history = [textMessage('hi'), textMessage('hello', Role.ROLE_AGENT), textMessage('/status')];

describe('/fork', () => {
  it('copies the history and settings into a sub-task and returns its task_ref', async () => {
    const metadata = withSettings(
      { client: 1 },
      {
        model: 'openai/gpt-4o',
        system: 'Be terse.',
        contextStart: 1,
        title: 'Plan',
        turns: 4,
        usage: { inputTokens: 5, outputTokens: 6 },
      },
    );
    const { result, fake } = await run(forkCommand, '', { metadata, history });
    expect(fake.subtasks).toHaveLength(1);
    const init = fake.subtasks[0]!;
    expect(init.history).toEqual(history);
    expect(init.prompt).toBeUndefined();
    expect(Object.keys(init.metadata ?? {})).toEqual([SETTINGS_KEY]);
    expect(settingsOf(init.metadata)).toEqual({
      model: 'openai/gpt-4o',
      system: 'Be terse.',
      contextStart: 1,
      title: 'Fork of Plan',
      // The web chat draws a fork as a fork, not as a sub-task that answers to its parent.
      forkOf: TASK_ID,
    });
    expect(result.task_ref).toBe('sub-1');
    expect(result.text).toContain('sub-1');
    expect(result.text).toContain('"Fork of Plan"');
    expect(result.text).toContain('3 messages');
    expect(result.data).toEqual({
      task_ref: 'sub-1',
      title: 'Fork of Plan',
      model: 'openai/gpt-4o',
      messages: 3,
    });
  });

  it("names an untitled parent by its id's start and pins the default model", async () => {
    const { fake } = await run(forkCommand, '', { history });
    expect(settingsOf(fake.subtasks[0]?.metadata)).toEqual({
      model: 'offline/echo',
      title: `Fork of ${TASK_ID.slice(0, 8)}`,
      forkOf: TASK_ID,
    });
  });

  it('takes a title, on one line, and works on a finished task', async () => {
    const { result, fake } = await run(forkCommand, 'Try\nagain', {
      history,
      state: TaskState.TASK_STATE_COMPLETED,
    });
    expect(settingsOf(fake.subtasks[0]?.metadata).title).toBe('Try again');
    expect(result.task_ref).toBe('sub-1');
  });

  it('refuses a title over the limit and makes no fork', async () => {
    const { result, fake } = await run(forkCommand, 'x'.repeat(201), { history });
    expect(fake.subtasks).toHaveLength(0);
    expect(result.task_ref).toBeUndefined();
    expect(result.text).toContain('the limit is 200');
    expect(result.text).toContain('No fork was made.');
  });
});
