import { Role, type Message } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { modelContext } from './model-context.js';

const entry = (id: string, role: Role, metadata?: Record<string, unknown>): Message => ({
  messageId: id,
  taskId: 't',
  contextId: 'c',
  role,
  parts: [
    { content: { $case: 'text', value: id }, mediaType: '', filename: '', metadata: undefined },
  ],
  metadata,
  extensions: [],
  referenceTaskIds: [],
});
const user = (id: string, metadata?: Record<string, unknown>) =>
  entry(id, Role.ROLE_USER, metadata);
const agent = (id: string, metadata?: Record<string, unknown>) =>
  entry(id, Role.ROLE_AGENT, metadata);
const texts = (messages: ReturnType<typeof modelContext>) =>
  messages.map((m) => `${m.role}:${String(m.content)}`);

describe('the model context of a turn', () => {
  it('§3: leaves out commands, command replies and the harness notes', () => {
    const history = [
      user('hi'),
      agent('hello'),
      user('/model x', { command: 'model' }),
      agent('model set', { command: 'model' }),
      agent('model a: 401', { 'a2a-harness': { note: 'model-error' } }),
      user('again'),
    ];
    expect(texts(modelContext(history, 'again'))).toEqual([
      'user:hi',
      'assistant:hello',
      'user:again',
    ]);
  });

  it('a message queued during a turn sees that turn answered, and its own message last', () => {
    // Stored in arrival order: b and c arrived while a was being answered.
    const history = [user('a'), user('b'), user('c'), agent('answer a')];
    expect(texts(modelContext(history, 'b'))).toEqual(['user:a', 'assistant:answer a', 'user:b']);
  });

  it('a later turn sees every earlier exchange in the order it happened for it', () => {
    const history = [user('a'), user('b'), user('c'), agent('answer a'), agent('answer b')];
    expect(texts(modelContext(history, 'c'))).toEqual([
      'user:a',
      'assistant:answer a',
      'user:b',
      'assistant:answer b',
      'user:c',
    ]);
  });

  it("after a /clear during a turn, a message queued since sees its own message, not that turn's answer", () => {
    // /clear came while a ran; b and c arrived after it, and a's answer after them.
    const before = [user('a')];
    const history = [user('b'), agent('answer a'), user('c')];
    expect(texts(modelContext(history, 'b', before))).toEqual(['user:b']);
    expect(texts(modelContext([...history, agent('answer b')], 'c', before))).toEqual([
      'user:b',
      'assistant:answer b',
      'user:c',
    ]);
  });
});
