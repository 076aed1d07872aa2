import { Role } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { settingsOf, withSettings } from '../../settings.js';
import { clearCommand } from './clear.js';
import { fakeServices, run, textMessage } from './test-context.js';

const history = [
  textMessage('hi'),
  textMessage('hello', Role.ROLE_AGENT),
  textMessage('how are you?'),
  textMessage('fine', Role.ROLE_AGENT),
];

describe('/clear', () => {
  it('starts the context after the history so far, which stays', async () => {
    const metadata = withSettings({}, { model: 'openai/gpt-4o' });
    const { result, fake } = await run(clearCommand, '', { metadata, history });
    expect(fake.updates).toBe(1);
    expect(settingsOf(fake.metadata)).toEqual({ model: 'openai/gpt-4o', contextStart: 4 });
    expect(result.text).toBe(
      "Context cleared. 4 messages stay in this task's history but are left out of the model's context from the next turn on.",
    );
    expect(result.data).toEqual({ contextStart: 4, kept: 4, cleared: 4 });
  });

  it('moves an earlier start forward and mentions a running turn', async () => {
    const metadata = withSettings({}, { contextStart: 2 });
    const services = fakeServices({ busy: true });
    const { result, fake } = await run(clearCommand, '', { metadata, history, services });
    expect(settingsOf(fake.metadata).contextStart).toBe(4);
    expect(result.data).toEqual({ contextStart: 4, kept: 4, cleared: 2 });
    expect(result.text).toContain('already running keeps the context');
  });

  it('changes nothing when there is nothing to clear', async () => {
    const empty = await run(clearCommand, '');
    expect(empty.fake.updates).toBe(0);
    expect(empty.result.text).toContain('no messages yet');

    const metadata = withSettings({}, { contextStart: 4 });
    const again = await run(clearCommand, '', { metadata, history });
    expect(again.fake.updates).toBe(0);
    expect(again.result.text).toContain('already empty');
  });

  it('refuses arguments, quoting them', async () => {
    const { result, fake } = await run(clearCommand, 'everything', { history });
    expect(fake.updates).toBe(0);
    expect(fake.historyLoads).toBe(0);
    expect(result.text).toContain('"everything"');
    expect(result.text).toContain('/clear alone');
  });
});

describe('/clear twice', () => {
  it('the second /clear finds nothing new: the first one and its reply are not context', async () => {
    const withFirstClear = [
      ...history,
      textMessage('/clear'),
      textMessage('Context cleared.', Role.ROLE_AGENT),
    ].map((message, i) => (i >= 4 ? { ...message, metadata: { command: 'clear' } } : message));
    const metadata = withSettings({}, { contextStart: 4 });
    const { result, fake } = await run(clearCommand, '', { metadata, history: withFirstClear });
    expect(fake.updates).toBe(0);
    expect(result.text).toContain('already empty');
  });
});
