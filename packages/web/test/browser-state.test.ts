import { describe, expect, it } from 'vitest';
import { agentUrlFrom, isAgentUrl, normalizeAgentUrl, searchFor } from '../src/a2a/agent-url.js';
import {
  loadKnownTasks,
  MAX_KNOWN_TASKS,
  rememberTask,
  storageKey,
} from '../src/a2a/known-tasks.js';
import { taskHref, taskIdFromHash } from '../src/state/task-hash.js';
import { memoryStorage } from './fixtures.js';

const AGENT = 'http://127.0.0.1:8080';

describe('the agent URL', () => {
  const page = { origin: 'http://127.0.0.1:8080', search: '' };

  it('is the page origin by default, or ?agent=', () => {
    expect(agentUrlFrom(page)).toBe(AGENT);
    expect(agentUrlFrom({ ...page, search: '?agent=http://other:4000/' })).toBe(
      'http://other:4000',
    );
    expect(agentUrlFrom({ ...page, search: '?agent=' })).toBe(AGENT);
  });

  it('is normalised: a scheme added, trailing slashes dropped', () => {
    expect(normalizeAgentUrl('localhost:4000/')).toBe('http://localhost:4000');
    expect(normalizeAgentUrl('https://agent.example/a2a//')).toBe('https://agent.example/a2a');
    expect(isAgentUrl('localhost:4000')).toBe(true);
    expect(isAgentUrl('ftp://x')).toBe(false);
    expect(isAgentUrl('http://')).toBe(false);
  });

  it('goes into ?agent= only when it is not the page origin', () => {
    expect(searchFor('http://other:4000', page)).toBe('?agent=http%3A%2F%2Fother%3A4000');
    expect(searchFor(AGENT, { ...page, search: '?agent=http://other:4000&x=1' })).toBe('?x=1');
  });
});

describe("this browser's tasks (local storage)", () => {
  it('remembers tasks per agent, most recent first, keeping the first title', () => {
    const storage = memoryStorage();
    rememberTask(storage, AGENT, { id: 'a', contextId: 'c', title: 'first' }, 1);
    rememberTask(storage, AGENT, { id: 'b', contextId: 'c' }, 2);
    rememberTask(storage, AGENT, { id: 'a', contextId: 'c', title: 'ignored' }, 3);
    expect(loadKnownTasks(storage, AGENT)).toEqual([
      { id: 'a', contextId: 'c', title: 'first', seen: 3 },
      { id: 'b', contextId: 'c', title: undefined, seen: 2 },
    ]);
    expect(loadKnownTasks(storage, 'http://other')).toEqual([]);
  });

  it('keeps at most MAX_KNOWN_TASKS', () => {
    const storage = memoryStorage();
    for (let i = 0; i < MAX_KNOWN_TASKS + 5; i++) {
      rememberTask(storage, AGENT, { id: `t${i}`, contextId: 'c' }, i);
    }
    const tasks = loadKnownTasks(storage, AGENT);
    expect(tasks).toHaveLength(MAX_KNOWN_TASKS);
    expect(tasks[0]!.id).toBe(`t${MAX_KNOWN_TASKS + 4}`);
  });

  it('reads corrupt, foreign or missing storage as no tasks, and never throws', () => {
    const storage = memoryStorage();
    storage.setItem(storageKey(AGENT), '{not json');
    expect(loadKnownTasks(storage, AGENT)).toEqual([]);
    storage.setItem(
      storageKey(AGENT),
      JSON.stringify([{ id: 1 }, { id: 'ok', contextId: 'c', seen: 1 }]),
    );
    expect(loadKnownTasks(storage, AGENT)).toEqual([{ id: 'ok', contextId: 'c', seen: 1 }]);
    expect(loadKnownTasks(undefined, AGENT)).toEqual([]);
    const full = {
      ...memoryStorage(),
      setItem: () => {
        throw new Error('quota');
      },
    } as Storage;
    expect(rememberTask(full, AGENT, { id: 'x', contextId: 'c' }, 1)).toHaveLength(1);
  });
});

describe('the task in the hash', () => {
  it('round-trips ids, and reads anything else as no task', () => {
    expect(taskIdFromHash(taskHref('a b/c'))).toBe('a b/c');
    expect(taskIdFromHash('')).toBeUndefined();
    expect(taskIdFromHash('#task=')).toBeUndefined();
    expect(taskIdFromHash('#other')).toBeUndefined();
  });
});
