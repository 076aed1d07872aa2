import { TaskState } from '@a2a-js/sdk';
import type { CommandContext, CommandResult, SubtaskInit, TaskView } from 'a2a-commands';
import { describe, expect, it } from 'vitest';
import { SETTINGS_KEY, settingsOf, withSettings } from '../../settings.js';
import type { CustomCommandDefinition } from './parse-file.js';
import { customCommandRun } from './run.js';

function fakeContext(args: string, metadata: Record<string, unknown> = {}) {
  const inits: SubtaskInit[] = [];
  const task: TaskView = {
    id: 'parent-1',
    contextId: 'ctx-1',
    state: TaskState.TASK_STATE_INPUT_REQUIRED,
    metadata,
    created: false,
    loadHistory: async () => [],
  };
  const context = {
    name: 'review',
    args,
    task,
    caller: { name: 'tester', authenticated: false },
    signal: new AbortController().signal,
    updateMetadata: async () => {
      throw new Error('not expected');
    },
    createSubtask: async (init: SubtaskInit = {}): Promise<TaskView> => {
      inits.push(init);
      return { ...task, id: `sub-${inits.length}`, metadata: init.metadata ?? {}, created: true };
    },
  } as unknown as CommandContext;
  return { context, inits };
}

const review: CustomCommandDefinition = {
  name: 'review',
  description: 'Review a file',
  argument_hint: '<file> [focus]',
  template: 'Review $1, focusing on $2.',
};

async function run(definition: CustomCommandDefinition, context: CommandContext) {
  const result = await customCommandRun(definition)(context);
  if (typeof result === 'string') throw new Error('expected a CommandResult');
  return result as CommandResult;
}

describe('customCommandRun', () => {
  it('starts a sub-task with the expanded prompt and returns its task_ref', async () => {
    const { context, inits } = fakeContext('"src/a b.ts" speed');
    const result = await run(review, context);
    expect(inits).toHaveLength(1);
    expect(inits[0]?.prompt).toBe('Review src/a b.ts, focusing on speed.');
    expect(result).toEqual({
      text: 'Started /review as sub-task sub-1: Review src/a b.ts, focusing on speed.',
      data: { task_ref: 'sub-1', prompt: 'Review src/a b.ts, focusing on speed.' },
      task_ref: 'sub-1',
    });
  });

  it("inherits the parent's model and system prompt", async () => {
    const parent = withSettings({ other: 1 }, { model: 'openai/gpt-5', system: 'Be terse.' });
    const { context, inits } = fakeContext('a.ts', parent);
    await run(review, context);
    const metadata = inits[0]?.metadata;
    expect(Object.keys(metadata ?? {})).toEqual([SETTINGS_KEY]);
    expect(settingsOf(metadata)).toEqual({
      model: 'openai/gpt-5',
      system: 'Be terse.',
      title: '/review a.ts',
    });
  });

  it("uses the file's model over the parent's, keeping the parent's system prompt", async () => {
    const parent = withSettings({}, { model: 'openai/gpt-5', system: 'Be terse.' });
    const { context, inits } = fakeContext('a.ts', parent);
    await run({ ...review, model: 'anthropic/claude-opus-4' }, context);
    expect(settingsOf(inits[0]?.metadata)).toEqual({
      model: 'anthropic/claude-opus-4',
      system: 'Be terse.',
      title: '/review a.ts',
    });
  });

  it('leaves model and system unset when the parent has none', async () => {
    const { context, inits } = fakeContext('');
    await run({ ...review, template: 'Go.' }, context);
    expect(settingsOf(inits[0]?.metadata)).toEqual({ title: '/review' });
  });

  it('shortens the title and the quoted prompt', async () => {
    const long = 'word '.repeat(50).trim();
    const { context, inits } = fakeContext(`x\n\n${long}`);
    const result = await run({ ...review, template: '$ARGUMENTS' }, context);
    const title = settingsOf(inits[0]?.metadata).title ?? '';
    expect(title.startsWith('/review x word word')).toBe(true);
    expect(title).not.toContain('\n');
    expect(Array.from(title).length).toBeLessThanOrEqual('/review '.length + 60);
    const quoted = result.text.slice('Started /review as sub-task sub-1: '.length);
    expect(Array.from(quoted)).toHaveLength(80);
    expect(quoted.endsWith('…')).toBe(true);
    expect((result.data as { prompt: string }).prompt).toBe(`x\n\n${long}`);
  });

  it('does not re-expand placeholders typed as arguments', async () => {
    const { context, inits } = fakeContext('$2 secret');
    await run(review, context);
    expect(inits[0]?.prompt).toBe('Review $2, focusing on secret.');
  });

  it('explains, without a sub-task, when the prompt would be empty', async () => {
    const { context, inits } = fakeContext('');
    const result = await run({ ...review, template: '$ARGUMENTS' }, context);
    expect(inits).toHaveLength(0);
    expect(result.task_ref).toBeUndefined();
    expect(result.text).toContain('/review needs arguments');
    expect(result.text).toContain('/review <file> [focus]');

    const bare = await run({ ...review, argument_hint: '', template: ' $1 ' }, context);
    expect(bare.text).toContain('/review needs arguments');
    expect(inits).toHaveLength(0);
  });
});
