/**
 * The foundation's acceptance matrix: the example agent answers /help by
 * SendMessage, SendStreamingMessage and HTTP+JSON message:send, on new, idle,
 * in-flight and canceled tasks, with and without A2A-Extensions, exactly as
 * SEMANTICS §3, §4 and §6 say.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExampleAgent, type RunningAgent } from './support/example-agent.js';
import { EXT, rest, resultOf, rpc, rpcStream, userText, type SseReader } from 'a2a-testing/http';

/** Turns that end at once, and turns slow enough for /help to land while they run. */
let quick: RunningAgent;
let slow: RunningAgent;
beforeAll(async () => {
  [quick, slow] = await Promise.all([startExampleAgent(0), startExampleAgent(600)]);
});
afterAll(() => Promise.all([quick.close(), slow.close()]));

type Situation = 'new' | 'idle' | 'in flight' | 'canceled';
type Method = 'SendMessage' | 'SendStreamingMessage' | 'message:send';

const expectedState: Record<Situation, string> = {
  new: 'TASK_STATE_INPUT_REQUIRED',
  idle: 'TASK_STATE_INPUT_REQUIRED',
  'in flight': 'TASK_STATE_WORKING',
  canceled: 'TASK_STATE_CANCELED',
};

/** The agent a situation is arranged on: only an in-flight turn needs to take its time. */
const agentFor = (situation: Situation) => (situation === 'in flight' ? slow : quick);

/** A task in the situation, and the open stream of its turn when one is in flight. */
async function arrange(situation: Situation): Promise<{ taskId?: string; turn?: SseReader }> {
  if (situation === 'new') return {};
  const agent = agentFor(situation);
  const { body } = await rpc(agent.baseUrl, 'SendMessage', { message: userText('hello') });
  const taskId: string = body.result.task.id;
  if (situation === 'canceled') await rpc(agent.baseUrl, 'CancelTask', { id: taskId });
  if (situation === 'in flight') {
    const { events } = await rpcStream(agent.baseUrl, 'SendStreamingMessage', {
      message: userText('a slow turn', { taskId }),
    });
    await events.next();
    return { taskId, turn: events };
  }
  return { taskId };
}

/** Sends /help; returns the reply update (or the Task's status), and the response's header. */
async function help(
  agent: RunningAgent,
  method: Method,
  taskId: string | undefined,
  extensions: boolean,
) {
  const message = userText('/help', taskId ? { taskId } : {});
  if (method === 'SendMessage') {
    const { body, headers } = await rpc(agent.baseUrl, method, { message }, { extensions });
    return { task: body.result.task, update: undefined, header: headers.get('a2a-extensions') };
  }
  if (method === 'message:send') {
    const { body, headers } = await rest(
      agent.baseUrl,
      '/message:send',
      { message },
      { extensions },
    );
    return { task: body.task, update: undefined, header: headers.get('a2a-extensions') };
  }
  const { response, events } = await rpcStream(agent.baseUrl, method, { message }, { extensions });
  const all = (await events.rest()).map(resultOf);
  expect(all.map((e) => Object.keys(e)[0])).toEqual(['task', 'statusUpdate']);
  return {
    task: all[0].task,
    update: all[1].statusUpdate,
    header: response.headers.get('a2a-extensions'),
  };
}

const methods: Method[] = ['SendMessage', 'SendStreamingMessage', 'message:send'];
const situations: Situation[] = ['new', 'idle', 'in flight', 'canceled'];

describe.each(methods)('/help by %s', (method) => {
  describe.each(situations)('on a %s task', (situation) => {
    it.each([true, false])('with A2A-Extensions: %s', async (extensions) => {
      const { taskId, turn } = await arrange(situation);
      const { task, update, header } = await help(agentFor(situation), method, taskId, extensions);

      if (taskId) expect(task.id).toBe(taskId);
      const status = update?.status ?? task.status;
      expect(status.state).toBe(expectedState[situation]);
      expect(status.message.role).toBe('ROLE_AGENT');
      expect(status.message.metadata).toEqual({ command: 'help' });
      expect(status.message.parts[0].text).toContain('/echo <text>');
      if (update) expect(update.metadata).toEqual({ command: 'help' });
      expect(task.metadata?.command).toBeUndefined();
      expect(header).toBe(extensions ? EXT : null);

      if (turn) {
        // The turn's own stream got the reply too, and still ends with the turn's answer.
        const events = (await turn.rest()).map(resultOf);
        expect(events.some((e) => e.statusUpdate?.metadata?.command === 'help')).toBe(true);
        expect(events.at(-1).statusUpdate.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      }
    });
  });
});
