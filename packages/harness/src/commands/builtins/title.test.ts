import { describe, expect, it } from 'vitest';
import { settingsOf, withSettings } from '../../settings.js';
import { run } from './test-context.js';
import { checkTitle, titleCommand } from './title.js';

describe('/title', () => {
  it('shows the title, or that there is none', async () => {
    const none = await run(titleCommand, '');
    expect(none.result.text).toContain('no title');
    expect(none.result.data).toEqual({ title: null });

    const metadata = withSettings({}, { title: 'Plan' });
    const shown = await run(titleCommand, '', { metadata });
    expect(shown.result.text).toBe('Title: "Plan"');
    expect(shown.fake.updates).toBe(0);
  });

  it('sets a title on one line', async () => {
    const metadata = withSettings({}, { title: 'Old' });
    const { result, fake } = await run(titleCommand, 'Trip\n  to\r\nLisbon', { metadata });
    expect(settingsOf(fake.metadata).title).toBe('Trip to Lisbon');
    expect(result.text).toBe('Title set to "Trip to Lisbon" (was "Old").');
    expect(result.data).toEqual({ title: 'Trip to Lisbon' });
  });

  it('accepts 200 characters and refuses 201, naming the limit and changing nothing', async () => {
    const ok = await run(titleCommand, 'a'.repeat(200));
    expect(settingsOf(ok.fake.metadata).title).toBe('a'.repeat(200));

    const metadata = withSettings({}, { title: 'Old' });
    const { result, fake } = await run(titleCommand, 'b'.repeat(201), { metadata });
    expect(fake.updates).toBe(0);
    expect(fake.metadata).toEqual(metadata);
    expect(result.text).toContain('201 characters');
    expect(result.text).toContain('the limit is 200');
    expect(result.text).toContain('"bbbb');
    expect(result.data).toMatchObject({ error: 'title_too_long', limit: 200, title: 'Old' });
  });

  it('counts characters, not UTF-16 units', () => {
    expect(checkTitle('😀'.repeat(200))).toEqual({ ok: true, title: '😀'.repeat(200) });
  });
});
