import { describe, expect, it } from 'vitest';
import { SETTINGS_KEY, settingsOf, withSettings } from '../../settings.js';
import { spawnCommand, spawnTitle } from './spawn.js';
import { run } from './test-context.js';

describe('/spawn', () => {
  it("runs the prompt in a sub-task with the parent's model and system prompt", async () => {
    const metadata = withSettings(
      { client: 1 },
      { model: 'openai/gpt-4o', system: 'Be terse.', title: 'Plan', contextStart: 3 },
    );
    const { result, fake } = await run(spawnCommand, 'Write a haiku\nabout tides', { metadata });
    expect(fake.subtasks).toHaveLength(1);
    const init = fake.subtasks[0]!;
    expect(init.prompt).toBe('Write a haiku\nabout tides');
    expect(init.history).toBeUndefined();
    expect(Object.keys(init.metadata ?? {})).toEqual([SETTINGS_KEY]);
    expect(settingsOf(init.metadata)).toEqual({
      model: 'openai/gpt-4o',
      system: 'Be terse.',
      title: '/spawn Write a haiku about tides',
    });
    expect(result.task_ref).toBe('sub-1');
    expect(result.text).toContain('sub-1');
    expect(result.text).toContain('"Write a haiku about tides"');
    expect(result.data).toEqual({
      task_ref: 'sub-1',
      model: 'openai/gpt-4o',
      prompt: 'Write a haiku\nabout tides',
    });
  });

  it('resolves an unset model to the default, so the sub-task starts on the same one', async () => {
    const { fake } = await run(spawnCommand, 'go');
    expect(settingsOf(fake.subtasks[0]?.metadata)).toEqual({
      model: 'offline/echo',
      title: '/spawn go',
    });
  });

  it('titles with the first 40 characters of the prompt', () => {
    const prompt = 'abcdefghij'.repeat(5);
    expect(spawnTitle(prompt)).toBe(`/spawn ${prompt.slice(0, 40)}…`);
    expect(spawnTitle('x'.repeat(40))).toBe(`/spawn ${'x'.repeat(40)}`);
  });

  it('refuses an empty prompt, quoting the hint, with no sub-task and no task_ref', async () => {
    const { result, fake } = await run(spawnCommand, '');
    expect(fake.subtasks).toHaveLength(0);
    expect(fake.updates).toBe(0);
    expect(result.task_ref).toBeUndefined();
    expect(result.text).toContain('/spawn needs a prompt');
    expect(result.text).toContain('/spawn <prompt>');
    expect(result.data).toEqual({ error: 'missing_arguments', argument_hint: '<prompt>' });
  });
});
