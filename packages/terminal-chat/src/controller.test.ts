import { TaskState } from '@a2a-js/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatController } from './controller.js';
import { COMMANDS_WITHOUT_STOP, FakeAgent, HARNESS_COMMANDS } from './test-agent.js';
import { task, userMessage, agentMessage } from 'a2a-chat-core/testing';
import { HOME } from './views.js';

let controller: ChatController | undefined;
afterEach(() => controller?.close());

function start(agent = new FakeAgent(), resumed?: Parameters<typeof newController>[1]) {
  controller = newController(agent, resumed);
  return { agent, controller };
}

function newController(
  agent: FakeAgent,
  resumed?: ConstructorParameters<typeof ChatController>[1],
) {
  return new ChatController(agent.connection(), resumed);
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 3000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function home(c: ChatController) {
  return c.getState().views[HOME]!;
}

function texts(c: ChatController, key = c.getState().active) {
  return c.getState().views[key]!.entries.map((entry) => `${entry.kind}: ${entry.text}`);
}

describe('sending', () => {
  it('streams an ordinary message and adopts the task the agent created', async () => {
    const { agent, controller } = start();
    expect(controller.submit('hello there')).toBe(true);
    await until(
      () => !home(controller).busy && home(controller).entries.length === 2,
      'the answer',
    );
    expect(texts(controller)).toEqual(['user: hello there', 'agent: You said: hello there']);
    expect(home(controller).taskId).toBe([...agent.tasks.keys()][0]);
    expect(agent.calls.map((c) => c.method)).toEqual(['sendMessageStream']);
  });

  it('sends commands with SendMessage and shows the tagged reply', async () => {
    const { agent, controller } = start();
    controller.submit('/model');
    await until(() => home(controller).entries.length === 2, 'the reply');
    expect(home(controller).entries[1]).toMatchObject({ kind: 'reply', command: 'model' });
    expect(agent.calls[0]).toMatchObject({ method: 'sendMessage', text: '/model' });
    // The task the command created (SEMANTICS §4) is the conversation's task from then on.
    controller.submit('hi');
    await until(() => home(controller).entries.length === 4, 'the answer');
    expect(agent.calls[1]).toMatchObject({
      method: 'sendMessageStream',
      taskId: home(controller).taskId,
    });
  });

  it('refuses a second message while a turn runs, but answers a command at once', async () => {
    const agent = new FakeAgent();
    agent.hold = true;
    const { controller } = start(agent);
    controller.submit('first');
    await until(() => home(controller).busy && home(controller).taskId !== undefined, 'the turn');
    expect(controller.submit('second')).toBe(false);
    expect(controller.getState().status?.text).toMatch(/A turn is running/);
    expect(controller.submit('/model')).toBe(true);
    await until(() => home(controller).entries.some((e) => e.kind === 'reply'), 'the reply');
    agent.hold = false;
    await until(() => !home(controller).busy, 'the end of the turn');
  });

  it('with an agent that has no commands, /model is an ordinary message', async () => {
    const { agent, controller } = start(new FakeAgent([]));
    controller.submit('/model');
    await until(
      () => !home(controller).busy && home(controller).entries.length === 2,
      'the answer',
    );
    expect(agent.calls[0]).toMatchObject({ method: 'sendMessageStream', text: '/model' });
    expect(texts(controller)[1]).toBe('agent: You said: /model');
  });
});

describe('Ctrl+C', () => {
  it('with /stop on the card, stops the answer and the conversation goes on in the same task', async () => {
    const agent = new FakeAgent(HARNESS_COMMANDS);
    agent.hold = true;
    const { controller } = start(agent);
    controller.submit('tell me a story');
    await until(() => home(controller).busy && home(controller).taskId !== undefined, 'the turn');
    const taskId = home(controller).taskId!;
    expect(controller.interrupt()).toBe('stopping');
    await until(() => !home(controller).busy, 'the end of the turn');
    expect(agent.calls.slice(1).map((c) => [c.method, c.text ?? '', c.taskId])).toEqual([
      ['sendMessage', '/stop', taskId],
    ]);
    // The answer so far stays, marked stopped; the task is not canceled.
    const answer = home(controller).entries.find((e) => e.kind === 'agent');
    expect(answer).toMatchObject({ text: 'You said: tell me a story', stopped: true });
    expect(agent.tasks.get(taskId)!.status!.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(home(controller).taskId).toBe(taskId);
    expect(home(controller).state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    // A second Ctrl+C within the arming time quits.
    expect(controller.interrupt()).toBe('quit');

    agent.hold = false;
    controller.disarm();
    controller.submit('and then?');
    await until(() => !home(controller).busy && agent.calls.length === 3, 'the next turn');
    expect(agent.calls[2]).toMatchObject({ method: 'sendMessageStream', taskId });
    expect(texts(controller).at(-1)).toBe('agent: You said: and then?');
    expect(home(controller).taskId).toBe(taskId);
  });

  it('a second Ctrl+C while the answer is stopping quits', async () => {
    const agent = new FakeAgent(HARNESS_COMMANDS);
    agent.hold = true;
    const { controller } = start(agent);
    controller.submit('long');
    await until(() => home(controller).busy && home(controller).taskId !== undefined, 'the turn');
    expect(controller.interrupt()).toBe('stopping');
    expect(controller.interrupt()).toBe('quit');
  });

  it('without /stop, cancels the task with CancelTask, says so, and goes on in a /fork', async () => {
    const agent = new FakeAgent(COMMANDS_WITHOUT_STOP);
    agent.hold = true;
    const { controller } = start(agent);
    controller.submit('tell me a story');
    await until(() => home(controller).busy && home(controller).taskId !== undefined, 'the turn');
    const canceled = home(controller).taskId!;
    expect(controller.interrupt()).toBe('canceling');
    await until(() => home(controller).taskId !== canceled, 'the fork');
    expect(agent.tasks.get(canceled)!.status!.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(agent.calls.slice(1).map((c) => [c.method, c.text ?? ''])).toEqual([
      ['cancelTask', ''],
      ['sendMessage', '/fork'],
    ]);
    expect(texts(controller).at(-1)).toMatch(
      /Turn canceled\. CancelTask ends the task.*goes on in task/,
    );
    expect(home(controller).busy).toBe(false);
    // A second Ctrl+C quits.
    expect(controller.interrupt()).toBe('quit');

    // The next message goes to the fork, which holds the conversation.
    agent.hold = false;
    controller.disarm();
    controller.submit('and then?');
    await until(() => !home(controller).busy && agent.calls.length === 4, 'the next turn');
    expect(agent.calls[3]).toMatchObject({
      method: 'sendMessageStream',
      taskId: home(controller).taskId,
    });
  });

  it('without /fork, the next message starts a new task in the same context', async () => {
    const agent = new FakeAgent([]);
    agent.hold = true;
    const { controller } = start(agent);
    controller.submit('long');
    await until(() => home(controller).busy && home(controller).taskId !== undefined, 'the turn');
    const { taskId, contextId } = home(controller);
    controller.interrupt();
    await until(
      () => texts(controller).some((t) => t.includes('next message starts a new task')),
      'the notice',
    );
    agent.hold = false;
    controller.submit('again');
    await until(() => !home(controller).busy && home(controller).taskId !== taskId, 'a new task');
    expect(agent.calls.at(-1)).toMatchObject({
      method: 'sendMessageStream',
      taskId: undefined,
      contextId,
    });
  });

  it('when idle, the first Ctrl+C arms and the second quits', () => {
    const { controller } = start();
    expect(controller.interrupt()).toBe('armed');
    expect(controller.getState().status?.text).toBe('Press Ctrl+C again to quit.');
    expect(controller.interrupt()).toBe('quit');
  });

  it('any other key in between starts over', () => {
    const { controller } = start();
    controller.interrupt();
    controller.disarm();
    expect(controller.interrupt()).toBe('armed');
  });
});

describe('sub-tasks', () => {
  it('the sub-task key opens the newest task_ref and comes back', async () => {
    const { agent, controller } = start();
    controller.submit('/spawn write a haiku');
    await until(() => home(controller).entries.length === 2, 'the reply');
    const ref = (home(controller).entries[1] as { taskRef?: string }).taskRef!;
    expect(agent.tasks.has(ref)).toBe(true);
    controller.toggleSubtask();
    await until(
      () => (controller.getState().views[ref]?.entries.length ?? 0) === 2,
      'the sub-task',
    );
    expect(controller.getState().active).toBe(ref);
    expect(texts(controller)).toEqual(['user: write a haiku', 'agent: You said: write a haiku']);
    controller.toggleSubtask();
    expect(controller.getState().active).toBe(HOME);
  });

  it('says so when there is no link to follow', () => {
    const { controller } = start();
    controller.toggleSubtask();
    expect(controller.getState().active).toBe(HOME);
    expect(controller.getState().status?.text).toMatch(/No sub-task link yet/);
  });

  it('an unknown task is an error in its view, not a crash', async () => {
    const { controller } = start();
    await controller.openTask('missing');
    expect(texts(controller, 'missing')).toEqual([
      'note: Task missing was not found on this agent.',
    ]);
  });
});

describe('resuming', () => {
  it('shows the task so far; an ended task keeps taking commands, a message starts a new task', async () => {
    const agent = new FakeAgent(HARNESS_COMMANDS);
    const old = task(
      [userMessage('hi'), agentMessage('hello')],
      TaskState.TASK_STATE_COMPLETED,
      'old',
    );
    agent.tasks.set('old', old);
    const { controller } = start(agent, old);
    expect(texts(controller)).toEqual([
      'user: hi',
      'agent: hello',
      expect.stringMatching(/^note: Task old has ended \(completed\)/),
    ]);
    controller.submit('/model');
    await until(() => home(controller).entries.at(-1)?.kind === 'reply', 'the reply');
    expect(agent.calls[0]).toMatchObject({ method: 'sendMessage', taskId: 'old' });
    controller.submit('new turn');
    await until(() => !home(controller).busy && agent.calls.length === 2, 'the turn');
    expect(agent.calls[1]).toMatchObject({ taskId: undefined, contextId: 'c1' });
  });
});
