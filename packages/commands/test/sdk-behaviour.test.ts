/**
 * The SDK behaviours of @a2a-js/sdk 1.3.0 that shape this library's design.
 * Each scenario runs twice: against a naive executor decorator on the bare SDK,
 * where it breaks, and against the library, where it holds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExampleAgent, type RunningAgent } from './support/example-agent.js';
import { EXT, resultOf, rpc, rpcStream, userText, type Listening } from 'a2a-testing/http';
import { startNaiveAgent } from './support/naive-agent.js';

const TURN_MS = 500;
let naive: Listening;
let library: RunningAgent;

beforeAll(async () => {
  [naive, library] = await Promise.all([startNaiveAgent(TURN_MS), startExampleAgent(TURN_MS)]);
});
afterAll(async () => {
  await Promise.all([naive.close(), library.close()]);
});

async function idleTask(baseUrl: string) {
  const { body } = await rpc(baseUrl, 'SendMessage', { message: userText('hello') });
  return body.result.task;
}

async function getTask(baseUrl: string, id: string) {
  return (await rpc(baseUrl, 'GetTask', { id })).body.result;
}

/** A streaming turn, then a second ordinary message while it runs. */
async function overlappingTurns(baseUrl: string) {
  const task = await idleTask(baseUrl);
  const first = await rpcStream(baseUrl, 'SendStreamingMessage', {
    message: userText('first', { taskId: task.id }),
  });
  await first.events.next();
  const second = rpc(baseUrl, 'SendMessage', { message: userText('second', { taskId: task.id }) });
  const firstEvents = await first.events.rest();
  await second.catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, TURN_MS + 200));
  return { firstEvents, final: await getTask(baseUrl, task.id) };
}

describe('the SDK runs two messages for one task at once, on one event bus', () => {
  it('naive: the second run breaks the first stream or leaves the task in working', async () => {
    const { firstEvents, final } = await overlappingTurns(naive.baseUrl);
    const broken = firstEvents.some((event) => event.error);
    const stuck = final.status.state === 'TASK_STATE_WORKING';
    expect(broken || stuck).toBe(true);
  });

  it('library: the second message waits its turn; the first stream ends cleanly', async () => {
    const { firstEvents, final } = await overlappingTurns(library.baseUrl);
    expect(firstEvents.filter((event) => event.error)).toEqual([]);
    expect(resultOf(firstEvents.at(-1)).statusUpdate.status.state).toBe(
      'TASK_STATE_INPUT_REQUIRED',
    );
    expect(final.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const texts = final.history.map((m: any) => m.parts[0].text);
    expect(texts.slice(-4)).toEqual(['first', 'You said: first', 'second', 'You said: second']);
  });
});

describe('the SDK refuses every message to a task in a terminal state', () => {
  async function commandOnCanceledTask(baseUrl: string) {
    const task = await idleTask(baseUrl);
    await rpc(baseUrl, 'CancelTask', { id: task.id });
    return (await rpc(baseUrl, 'SendMessage', { message: userText('/help', { taskId: task.id }) }))
      .body;
  }

  it('naive: /help on a canceled task is refused', async () => {
    const body = await commandOnCanceledTask(naive.baseUrl);
    expect(body.error).toBeDefined();
  });

  it('library: /help on a canceled task is answered and the task stays canceled', async () => {
    const body = await commandOnCanceledTask(library.baseUrl);
    expect(body.result.task.status.message.metadata).toEqual({ command: 'help' });
    expect(body.result.task.status.state).toBe('TASK_STATE_CANCELED');
  });
});

describe("the SDK merges a status update's metadata into Task.metadata for good", () => {
  async function metadataAfterCommand(baseUrl: string) {
    const task = await idleTask(baseUrl);
    await rpc(baseUrl, 'SendMessage', { message: userText('/help', { taskId: task.id }) });
    return (await getTask(baseUrl, task.id)).metadata ?? {};
  }

  it('naive: the task keeps the reply tag after the reply', async () => {
    expect(await metadataAfterCommand(naive.baseUrl)).toMatchObject({ command: 'help' });
  });

  it('library: Task.metadata stays clean', async () => {
    expect(await metadataAfterCommand(library.baseUrl)).not.toHaveProperty('command');
  });
});

describe('an extension activated inside the executor misses the SSE response headers', () => {
  async function streamedHeader(baseUrl: string) {
    const { response, events } = await rpcStream(
      baseUrl,
      'SendStreamingMessage',
      { message: userText('/help') },
      { extensions: true },
    );
    await events.rest();
    return response.headers.get('a2a-extensions');
  }

  it('naive: the SSE response does not echo A2A-Extensions', async () => {
    expect(await streamedHeader(naive.baseUrl)).toBeNull();
  });

  it('library: the SSE response echoes it', async () => {
    expect(await streamedHeader(library.baseUrl)).toBe(EXT);
  });
});
