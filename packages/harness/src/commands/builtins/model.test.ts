import { describe, expect, it } from 'vitest';
import { settingsOf, withSettings } from '../../settings.js';
import { modelCommand } from './model.js';
import { fakeServices, MODELS, run, stubCatalog } from './test-context.js';

const models = MODELS.map(({ id, provider }) => ({ id, provider }));

describe('/model', () => {
  it('shows the current model and every model grouped by provider, with exact data keys', async () => {
    const { result, fake } = await run(modelCommand, '');
    expect(fake.updates).toBe(0);
    expect(Object.keys(result.data as object)).toEqual(['current', 'models']);
    expect(result.data).toEqual({ current: 'offline/echo', models });
    for (const model of (result.data as { models: object[] }).models) {
      expect(Object.keys(model)).toEqual(['id', 'provider']);
    }
    const lines = result.text.split('\n');
    expect(lines[0]).toBe('Model: offline/echo (the server default)');
    expect(lines).toContain('offline:');
    expect(lines).toContain('* offline/echo');
    expect(lines).toContain('  openai/gpt-4o');
    expect(lines.indexOf('openai:')).toBeLessThan(lines.indexOf('  openai/gpt-4o'));
  });

  it("shows the task's own model as current", async () => {
    const metadata = withSettings({}, { model: 'openai/gpt-4o-mini' });
    const { result } = await run(modelCommand, '', { metadata });
    expect(result.data).toEqual({ current: 'openai/gpt-4o-mini', models });
    expect(result.text).toContain('* openai/gpt-4o-mini');
    expect(result.text).not.toContain('server default');
  });

  it('changes the model, keeps other metadata, and reports the new id as current', async () => {
    const metadata = { client: 'x', ...withSettings({}, { title: 'T' }) };
    const { result, fake } = await run(modelCommand, 'openai/gpt-4o', { metadata });
    expect(fake.updates).toBe(1);
    expect(settingsOf(fake.metadata)).toEqual({ title: 'T', model: 'openai/gpt-4o' });
    expect(fake.metadata.client).toBe('x');
    expect(result.text).toBe(
      'Model set to openai/gpt-4o (was offline/echo). It applies from the next model call.',
    );
    expect(result.data).toEqual({ current: 'openai/gpt-4o', models });
  });

  it('changes nothing for an unknown model, quoting it and naming close matches', async () => {
    const metadata = withSettings({}, { model: 'openai/gpt-4o-mini' });
    const { result, fake } = await run(modelCommand, 'openai/gpt-4x', { metadata });
    expect(fake.updates).toBe(0);
    expect(fake.metadata).toEqual(metadata);
    expect(result.text).toContain('"openai/gpt-4x"');
    expect(result.text).toContain('Did you mean openai/gpt-4o');
    expect(result.text).toContain('still openai/gpt-4o-mini');
    // docs/commands.md: a refused argument's data has an `error` key; the model is unchanged.
    expect(result.data).toEqual({ error: 'unknown_model', current: 'openai/gpt-4o-mini', models });
  });

  it('explains the id shape for a bare model name', async () => {
    const { result, fake } = await run(modelCommand, 'gpt-4o');
    expect(fake.updates).toBe(0);
    expect(result.text).toContain('"gpt-4o"');
    expect(result.text).toContain('<provider>/<model>');
    expect(result.text).toContain('openai/gpt-4o');
  });

  it('names the providers when the provider is unknown', async () => {
    const { result, fake } = await run(modelCommand, 'anthropic/claude');
    expect(fake.updates).toBe(0);
    expect(result.text).toBe(
      'Unknown model "anthropic/claude". There is no provider "anthropic"; the providers are offline, openai. Type /model to list the models. The model is still offline/echo.',
    );
    expect((result.data as { error?: string }).error).toBe('unknown_model');
  });

  it('says so when the model is already chosen', async () => {
    const metadata = withSettings({}, { model: 'openai/gpt-4o' });
    const { result, fake } = await run(modelCommand, 'openai/gpt-4o', { metadata });
    expect(fake.updates).toBe(0);
    expect(result.text).toContain('already openai/gpt-4o');
    expect(result.data).toEqual({ current: 'openai/gpt-4o', models });
  });

  it('lets other catalog failures reach the library, which reports them without details', async () => {
    const catalog = stubCatalog();
    catalog.languageModel = async () => {
      throw new Error('/secret/path failed');
    };
    const services = fakeServices({ catalog });
    await expect(run(modelCommand, 'openai/gpt-4o', { services })).rejects.toThrow();
  });
});
