import { Role, type Message } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { isCommandExchange, withoutCommands } from './history.js';

const entry = (text: string, role: Role, metadata?: Record<string, unknown>): Message => ({
  messageId: text,
  taskId: 't',
  contextId: 'c',
  role,
  parts: [
    { content: { $case: 'text', value: text }, mediaType: '', filename: '', metadata: undefined },
  ],
  metadata,
  extensions: [],
  referenceTaskIds: [],
});

describe('§3: neither a command nor its reply is ever sent to the model as context', () => {
  const history = [
    entry('hello', Role.ROLE_USER),
    entry('hi there', Role.ROLE_AGENT),
    entry('/model x', Role.ROLE_USER, { command: 'model' }),
    entry('model set to x', Role.ROLE_AGENT, { command: 'model' }),
    entry('/spawn y', Role.ROLE_USER, { command: 'spawn', client: 'kept' }),
    entry('started', Role.ROLE_AGENT, { command: 'spawn', task_ref: 's1' }),
    entry('what next?', Role.ROLE_USER, { client: 'some other metadata' }),
  ];

  it('withoutCommands leaves only the conversation, in order', () => {
    expect(withoutCommands(history).map((m) => m.messageId)).toEqual([
      'hello',
      'hi there',
      'what next?',
    ]);
  });

  it('isCommandExchange tells tagged entries from ordinary ones', () => {
    expect(history.map(isCommandExchange)).toEqual([false, false, true, true, true, true, false]);
  });
});
