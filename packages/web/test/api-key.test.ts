import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiKeyRefusedError } from 'a2a-chat-core';
import { ApiKeyNeededError, keyFingerprint } from '../src/a2a/api-key.js';
import { apiKeyStorageKey, loadApiKey, saveApiKey } from '../src/a2a/api-key-store.js';
import { describeError } from '../src/a2a/errors.js';
import {
  forgetTask,
  loadKnownTasks,
  rememberTask,
  storageKey,
  taskListScope,
} from '../src/a2a/known-tasks.js';
import { AgentSession } from '../src/a2a/session.js';
import { fakeAgent, type Binding } from './fake-agent.js';
import { memoryStorage } from './fixtures.js';

const AGENT = 'http://agent.test';
const KEY = 'alice-key-0123456789abcdef';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe.each<Binding>(['JSONRPC', 'HTTP+JSON'])('a session over %s', (binding) => {
  it('reads the card without the key, then sends "authorization: Bearer <key>" on every call', async () => {
    const seen = fakeAgent(AGENT, binding, { requireKey: true, accepts: KEY });
    const session = await AgentSession.connect(AGENT, KEY);
    expect((await session.getTask('t1')).id).toBe('t1');
    expect(await session.listContext('c1')).toHaveLength(1);

    const [card, ...calls] = seen;
    expect(card).toEqual({ url: `${AGENT}/.well-known/agent-card.json`, authorization: null });
    // The key's check (one ListTasks), GetTask and ListTasks.
    expect(calls).toHaveLength(3);
    for (const call of calls) expect(call.authorization).toBe(`Bearer ${KEY}`);
  });

  it('makes no call when the card asks for a key and there is none', async () => {
    const seen = fakeAgent(AGENT, binding, { requireKey: true, accepts: KEY });
    await expect(AgentSession.connect(AGENT)).rejects.toBeInstanceOf(ApiKeyNeededError);
    expect(seen.map((call) => call.url)).toEqual([`${AGENT}/.well-known/agent-card.json`]);
  });

  it('a wrong key is refused (HTTP 401) as the session connects, and the chat says so without repeating the key', async () => {
    fakeAgent(AGENT, binding, { requireKey: true, accepts: KEY });
    // Checked as it connects, with one call: not at the first send.
    const error: unknown = await AgentSession.connect(AGENT, 'not-the-key').catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ApiKeyRefusedError);

    const problem = describeError(error, AGENT, 'send');
    expect(problem).toMatchObject({ title: 'The agent refused the API key', apiKey: 'refused' });
    expect(JSON.stringify(problem)).not.toContain('not-the-key');
  });

  it('sends no authorization header without a key', async () => {
    const seen = fakeAgent(AGENT, binding, { requireKey: false });
    const session = await AgentSession.connect(AGENT);
    await session.getTask('t1');
    expect(seen.map((call) => call.authorization)).toEqual([null, null]);
  });
});

describe('describeError for API keys', () => {
  it('no key for an agent that needs one: the fix is the key field', () => {
    for (const error of [new ApiKeyNeededError(), new ApiKeyRefusedError(false)]) {
      expect(describeError(error, AGENT, 'connect')).toMatchObject({
        title: 'This agent needs an API key',
        apiKey: 'missing',
        unreachable: false,
      });
    }
  });
});

describe('the API key in session storage', () => {
  it('is kept per agent URL; a blank key or none forgets it', () => {
    const storage = memoryStorage();
    saveApiKey(storage, AGENT, KEY);
    expect(loadApiKey(storage, AGENT)).toBe(KEY);
    expect(loadApiKey(storage, 'http://other.test')).toBeUndefined();
    saveApiKey(storage, AGENT, '');
    expect(loadApiKey(storage, AGENT)).toBeUndefined();
    saveApiKey(storage, AGENT, KEY);
    saveApiKey(storage, AGENT, undefined);
    expect(storage.getItem(apiKeyStorageKey(AGENT))).toBeNull();
  });

  it('blocked storage reads as no key, and never throws', () => {
    const blocked = {
      ...memoryStorage(),
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    } as Storage;
    expect(() => saveApiKey(blocked, AGENT, KEY)).not.toThrow();
    expect(loadApiKey(blocked, AGENT)).toBeUndefined();
    expect(loadApiKey(undefined, AGENT)).toBeUndefined();
  });
});

describe('key fingerprints', () => {
  it('are short, stable, one per key, and do not contain the key', async () => {
    const one = await keyFingerprint(KEY);
    // SHA-256, cut short.
    expect(one).toMatch(/^[0-9a-f]{12}$/);
    expect(await keyFingerprint(KEY)).toBe(one);
    expect(await keyFingerprint('bob-key-0123456789abcdef')).not.toBe(one);
    expect(one).not.toContain(KEY.slice(0, 4));
  });

  it('still work where Web Crypto is missing (plain http away from localhost)', async () => {
    vi.stubGlobal('crypto', undefined);
    const one = await keyFingerprint(KEY);
    expect(one).toMatch(/^[0-9a-f]{8}$/);
    expect(await keyFingerprint(KEY)).toBe(one);
    expect(await keyFingerprint('bob-key-0123456789abcdef')).not.toBe(one);
  });
});

describe('task lists per key (local storage)', () => {
  it('keeps each key its own list; without a key the list is the one kept per URL', () => {
    const storage = memoryStorage();
    const alice = taskListScope(AGENT, 'a11ce');
    const bob = taskListScope(AGENT, 'b0b');
    rememberTask(storage, alice, { id: 'a1', contextId: 'c' }, 1);
    rememberTask(storage, bob, { id: 'b1', contextId: 'c' }, 2);
    expect(loadKnownTasks(storage, alice).map((task) => task.id)).toEqual(['a1']);
    expect(loadKnownTasks(storage, bob).map((task) => task.id)).toEqual(['b1']);
    expect(taskListScope(AGENT)).toBe(AGENT);
    expect(loadKnownTasks(storage, taskListScope(AGENT))).toEqual([]);
    // Only the fingerprint is stored, never the key.
    expect(storageKey(alice)).toContain('a11ce');
  });

  it('forgets a task the agent says it does not have', () => {
    const storage = memoryStorage();
    rememberTask(storage, AGENT, { id: 'gone', contextId: 'c' }, 1);
    rememberTask(storage, AGENT, { id: 'kept', contextId: 'c' }, 2);
    expect(forgetTask(storage, AGENT, 'gone').map((task) => task.id)).toEqual(['kept']);
    expect(loadKnownTasks(storage, AGENT).map((task) => task.id)).toEqual(['kept']);
    expect(forgetTask(storage, AGENT, 'never-known')).toHaveLength(1);
  });
});
