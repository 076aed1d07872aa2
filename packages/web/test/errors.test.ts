import { describe, expect, it } from 'vitest';
import { describeError, isAbort } from '../src/a2a/errors.js';

const AGENT = 'http://127.0.0.1:1';

describe('describeError', () => {
  it('a fetch that got no answer: the agent is unreachable (down, wrong URL, or no CORS)', () => {
    const problem = describeError(new TypeError('Failed to fetch'), AGENT, 'connect');
    expect(problem).toMatchObject({ title: "Can't reach the agent", unreachable: true });
    expect(problem.detail).toContain(AGENT);
    expect(problem.detail).toContain('CORS');
  });

  it('a missing card says so', () => {
    const error = new Error(
      `Failed to fetch Agent Card from ${AGENT}/.well-known/agent-card.json: 404`,
    );
    expect(describeError(error, AGENT, 'connect')).toMatchObject({
      title: 'No agent card there',
      unreachable: false,
    });
  });

  it("a refused request shows the agent's own words", () => {
    const error = new Error('Task t has ended (TASK_STATE_CANCELED); start a new task to go on.');
    expect(describeError(error, AGENT, 'send')).toEqual({
      title: 'The agent refused the request',
      detail: 'Task t has ended (TASK_STATE_CANCELED); start a new task to go on.',
      unreachable: false,
    });
  });

  it('knows an abort from a failure', () => {
    const abort = new Error('aborted');
    abort.name = 'AbortError';
    expect(isAbort(abort)).toBe(true);
    expect(isAbort(new Error('x'))).toBe(false);
  });
});
