import { describe, expect, it } from 'vitest';
import { settingsOf, withSettings } from '../../settings.js';
import { systemCommand } from './system.js';
import { run } from './test-context.js';

describe('/system', () => {
  it('says when there is no system prompt', async () => {
    const { result, fake } = await run(systemCommand, '');
    expect(fake.updates).toBe(0);
    expect(result.text).toContain('no system prompt');
    expect(result.data).toEqual({ system: null });
  });

  it('sets the prompt, keeping inner newlines, and confirms it quoted', async () => {
    const { result, fake } = await run(systemCommand, 'Be terse.\nAnswer in French.');
    expect(settingsOf(fake.metadata).system).toBe('Be terse.\nAnswer in French.');
    expect(result.text).toBe(
      'System prompt set: "Be terse. Answer in French.". It applies from the next model call.',
    );
    expect(result.data).toEqual({ system: 'Be terse.\nAnswer in French.' });
  });

  it('quotes a long prompt cut to 200 characters but stores it whole', async () => {
    const long = 'x'.repeat(500);
    const metadata = withSettings({}, { system: 'old' });
    const { result, fake } = await run(systemCommand, long, { metadata });
    expect(settingsOf(fake.metadata).system).toBe(long);
    expect(result.text).toContain('System prompt replaced');
    expect(result.text).toContain(`"${'x'.repeat(199)}…"`);
    expect(result.text).not.toContain('x'.repeat(200));
  });

  it('shows the current prompt', async () => {
    const metadata = withSettings({}, { system: 'Be terse.' });
    const { result, fake } = await run(systemCommand, '', { metadata });
    expect(fake.updates).toBe(0);
    expect(result.text).toBe('System prompt:\n"Be terse."');
    expect(result.data).toEqual({ system: 'Be terse.' });
  });

  it('removes it with --clear', async () => {
    const metadata = withSettings({}, { system: 'Be terse.', title: 'T' });
    const { result, fake } = await run(systemCommand, '--clear', { metadata });
    expect(settingsOf(fake.metadata)).toEqual({ title: 'T' });
    expect(result.text).toContain('removed');
    expect(result.data).toEqual({ system: null });

    const none = await run(systemCommand, '--clear');
    expect(none.fake.updates).toBe(0);
    expect(none.result.text).toContain('nothing to clear');
  });

  it('refuses an unknown option, quoting it and pointing at --clear', async () => {
    const { result, fake } = await run(systemCommand, '--clean');
    expect(fake.updates).toBe(0);
    expect(result.text).toContain('"--clean"');
    expect(result.text).toContain('/system --clear');
  });
});
