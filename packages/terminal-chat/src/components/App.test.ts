import { createElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatController } from '../controller.js';
import { COMMANDS_WITHOUT_STOP, FakeAgent } from '../test-agent.js';
import {
  frame,
  KEYS,
  press,
  renderInk,
  renderThroughKeyFilter,
  resize,
  settle,
  waitForFrame,
  type Rendered,
} from '../test-ink.js';
import { taskToResume } from '../chat-store.js';
import { HOME } from '../views.js';
import { App } from './App.js';

let app: Rendered | undefined;
let controller: ChatController | undefined;
afterEach(() => {
  app?.unmount();
  controller?.close();
});

async function chat(agent = new FakeAgent()) {
  controller = new ChatController(agent.connection());
  app = await renderInk(createElement(App, { controller }));
  return { agent, app, controller };
}

const firstLine = (text: string) => text.split('\n')[0] ?? '';

describe('App', () => {
  it('shows the agent, a welcome, and the keys in the footer', async () => {
    const { app } = await chat();
    const text = frame(app);
    expect(firstLine(text)).toContain('◆ Fake agent · http://agent.test · new conversation');
    expect(text).toContain('Connected to Fake agent. Type a message, or / for its 6 commands.');
    expect(text.split('\n').at(-1)).toBe(
      'Enter send · / commands · Ctrl+T open sub-task · PgUp scroll · Ctrl+C quit',
    );
  });

  it('/mo, Tab, an argument, Enter: the reply is tagged with the command', async () => {
    const { app, agent } = await chat();
    await press(app, '/mo');
    expect(frame(app)).toMatch(/❯ \/model\s+Show or choose/);
    await press(app, KEYS.tab);
    expect(frame(app)).toContain('› /model  [<model>]');
    await press(app, 'openai/gpt-x', KEYS.enter);
    await waitForFrame(app, (t) => t.includes('Model set to openai/gpt-x.'));
    expect(frame(app)).toContain('┃ /model · command reply');
    expect(agent.calls).toEqual([expect.objectContaining({ text: '/model openai/gpt-x' })]);
  });

  it('/model lists the models; picking one sends /model <id>', async () => {
    const { app, agent } = await chat();
    await press(app, '/model', KEYS.enter);
    await waitForFrame(app, (t) => t.includes('↑↓ choose · Enter pick'));
    expect(frame(app)).toMatch(/❯ ● offline\/echo/);
    await press(app, KEYS.down, KEYS.enter);
    await waitForFrame(app, (t) => t.includes('Model set to openai/gpt-x.'));
    expect(agent.calls.map((c) => c.text)).toEqual(['/model', '/model openai/gpt-x']);
    // Picking does not open the list again: the keys are back in the input.
    expect(frame(app).split('\n').at(-1)).toContain('Enter send');
  });

  it('typing while the list has the keys goes back to the input', async () => {
    const { app } = await chat();
    await press(app, '/model', KEYS.enter);
    await waitForFrame(app, (t) => t.includes('↑↓ choose'));
    await press(app, 'h', 'i');
    expect(frame(app)).toContain('› hi');
    expect(frame(app)).not.toContain('↑↓ choose');
  });

  it('streams an answer in, apart from replies', async () => {
    const agent = new FakeAgent();
    agent.wordDelayMs = 5;
    const { app } = await chat(agent);
    await press(app, 'hello agent', KEYS.enter);
    await waitForFrame(app, (t) => t.includes('You said: hello agent') && !t.includes('working'));
    expect(frame(app)).toContain('› hello agent\n\nYou said: hello agent');
  });

  it('follows a sub-task link with Ctrl+T and comes back', async () => {
    const { app } = await chat();
    await press(app, '/spawn write a haiku', KEYS.enter);
    await waitForFrame(app, (t) => t.includes('· Ctrl+T opens it'));
    await press(app, KEYS.ctrlT);
    const sub = await waitForFrame(app, (t) => t.includes('You said: write a haiku'));
    expect(firstLine(sub)).toContain('sub-task view');
    expect(sub.split('\n').at(-1)).toContain('Ctrl+T back to main');
    await press(app, KEYS.ctrlT);
    await waitForFrame(app, (t) => t.includes('Started sub-task'));
    expect(firstLine(frame(app))).not.toContain('sub-task view');
  });

  it('a task and the sub-task it started show different short ids: the ends of their ids', async () => {
    const { app, agent } = await chat();
    await press(app, '/spawn write a haiku', KEYS.enter);
    await waitForFrame(app, (t) => t.includes('· Ctrl+T opens it'));
    const [home, sub] = [...agent.tasks.keys()];
    // Made in the same moment, time-ordered: the same first 8 characters.
    expect(home!.slice(0, 8)).toBe(sub!.slice(0, 8));
    expect(firstLine(frame(app))).toContain(`task ${home!.slice(-8)} ·`);
    await press(app, KEYS.ctrlT);
    await waitForFrame(app, (t) => firstLine(t).includes('sub-task view'));
    expect(firstLine(frame(app))).toContain(`task ${sub!.slice(-8)} ·`);
  });

  it('/tasks lists the tasks; picking one opens it', async () => {
    const { app } = await chat();
    await press(app, '/spawn a poem', KEYS.enter);
    await waitForFrame(app, (t) => t.includes('Started sub-task'));
    await press(app, '/tasks', KEYS.enter);
    await waitForFrame(app, (t) => t.includes('Enter opens it'));
    // The current task comes first in the list; the sub-task is the other one.
    await press(app, KEYS.down, KEYS.enter);
    const opened = await waitForFrame(app, (t) => t.includes('You said: a poem'));
    expect(firstLine(opened)).toContain('sub-task view');
  });

  it('after /tasks, opening a task and Ctrl+T back, Up recalls history: the old list keeps no keys', async () => {
    const { app } = await chat();
    await press(app, '/spawn a poem', KEYS.enter);
    await waitForFrame(app, (t) => t.includes('Started sub-task'));
    await press(app, '/tasks', KEYS.enter);
    await waitForFrame(app, (t) => t.includes('Enter opens it'));
    await press(app, KEYS.down, KEYS.enter);
    await waitForFrame(app, (t) => t.includes('You said: a poem'));
    await press(app, KEYS.ctrlT);
    await waitForFrame(app, (t) => !firstLine(t).includes('sub-task view'));
    await press(app, KEYS.up);
    expect(frame(app)).toContain('› /tasks');
    expect(frame(app).split('\n').at(-1)).toContain('Enter send');
  });

  it('quitting inside a fork resumes the fork, not the main task', async () => {
    const { app, agent } = await chat();
    await press(app, 'hello', KEYS.enter);
    await waitForFrame(app, (t) => t.includes('You said: hello') && !t.includes('working'));
    await press(app, '/fork', KEYS.enter);
    await waitForFrame(app, (t) => t.includes('· Ctrl+T opens it'));
    await press(app, KEYS.ctrlT);
    await waitForFrame(app, (t) => firstLine(t).includes('sub-task view'));
    const fork = [...agent.tasks.keys()][1]!;
    expect(taskToResume(controller!.getState())).toBe(fork);
  });

  it('PgUp while an answer streams holds still: the lines on screen do not drift', async () => {
    const agent = new FakeAgent();
    const { app } = await chat(agent);
    await resize(app, 80, 24);
    const words = (n: number, tag: string) =>
      Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ');
    await press(app, words(200, 'old'), KEYS.enter);
    await waitForFrame(app, (t) => t.includes('old199') && !t.includes('working'));
    agent.wordDelayMs = 5;
    await press(app, words(300, 'new'), KEYS.enter);
    await waitForFrame(app, (t) => t.includes('You said: new0'));
    await press(app, KEYS.pageUp);
    const transcript = () => frame(app).split('\n').slice(1, -3).join('\n');
    const before = transcript();
    // Several rows more of the answer arrive below what is on screen.
    const answer = () => controller!.getState().views[HOME]!.entries.at(-1)!.text;
    await waitForFrame(app, () => answer().includes('new60'), 20_000);
    await settle(60);
    expect(frame(app)).toContain('working');
    expect(transcript()).toBe(before);
  }, 30_000);

  it('an agent without the extension: plain chat, no list, / goes to the model', async () => {
    const { app, agent } = await chat(new FakeAgent([]));
    expect(frame(app)).toContain('Connected to Fake agent. Type a message.');
    expect(frame(app).split('\n').at(-1)).not.toContain('/ commands');
    await press(app, '/help');
    expect(frame(app)).not.toContain('❯');
    await press(app, KEYS.enter);
    await waitForFrame(app, (t) => t.includes('You said: /help'));
    expect(agent.calls[0]).toMatchObject({ method: 'sendMessageStream', text: '/help' });
  });

  it('Ctrl+C clears the draft and arms quitting; a long reply never makes the frame taller than the terminal', async () => {
    const { app } = await chat();
    await press(app, 'a long one ' + 'word '.repeat(2000), KEYS.enter);
    await waitForFrame(app, (t) => t.includes('word word') && !t.includes('working'));
    expect(frame(app).split('\n').length).toBeLessThanOrEqual(23);
    await press(app, 'draft', KEYS.ctrlC);
    await waitForFrame(app, (t) => t.includes('Press Ctrl+C again to quit.'));
    expect(frame(app)).not.toContain('› draft');
  });

  it('a long input at 120×40 wraps inside the terminal: no row is wider, the header stays', async () => {
    const { app } = await chat();
    await resize(app, 120, 40);
    await press(app, 'x'.repeat(125));
    const rows = frame(app).split('\n');
    expect(rows[0]).toContain('◆ Fake agent');
    expect(Math.max(...rows.map((row) => [...row].length))).toBeLessThanOrEqual(120);
    expect(rows.filter((row) => row.includes('x')).map((row) => row.trimEnd())).toEqual([
      `› ${'x'.repeat(118)}`,
      `  ${'x'.repeat(7)}`,
    ]);
  });
});

describe('stopping an answer', () => {
  async function answering(commands?: ConstructorParameters<typeof FakeAgent>[0]) {
    const agent = new FakeAgent(commands);
    agent.hold = true;
    const { app } = await chat(agent);
    await resize(app, 80, 24);
    await press(app, 'hello', KEYS.enter);
    await waitForFrame(app, (t) => t.includes('working'));
    return { agent, app };
  }

  it('the footer says what Ctrl+C does, whole, at 80 columns', async () => {
    const { app } = await answering();
    const footer = frame(app).split('\n').at(-1)!;
    expect(footer).toContain('Ctrl+C stop answer');
    expect([...footer].length).toBeLessThanOrEqual(80);
  });

  it('without /stop on the card, the footer says Ctrl+C cancels the task', async () => {
    const { app } = await answering(COMMANDS_WITHOUT_STOP);
    expect(frame(app).split('\n').at(-1)).toContain('Ctrl+C cancel task');
  });

  it('Esc stops the answer, without arming quit', async () => {
    const { app, agent } = await answering();
    await press(app, KEYS.escape);
    await waitForFrame(app, (t) => t.includes('Stopped the answer.'));
    expect(agent.calls.map((call) => call.text)).toEqual(['hello', '/stop']);
    expect(controller!.getState().quitArmed).toBe(false);
  });

  it('Esc with the completion list open closes the list and leaves the answer running', async () => {
    const { app, agent } = await answering();
    await press(app, '/mo');
    await waitForFrame(app, (t) => t.includes('❯ /model'));
    await press(app, KEYS.escape);
    expect(frame(app)).not.toContain('❯ /model');
    expect(frame(app)).toContain('working');
    expect(agent.calls.map((call) => call.text)).toEqual(['hello']);
  });
});

describe('keys that arrive in one read', () => {
  it('two Ctrl+C in one read stop the answer, then quit', async () => {
    const agent = new FakeAgent();
    agent.hold = true;
    controller = new ChatController(agent.connection());
    const rendered = await renderThroughKeyFilter(createElement(App, { controller }));
    app = rendered;
    await press(app, 'hello', KEYS.enter);
    await waitForFrame(app, (t) => t.includes('working'));
    await press(app, KEYS.ctrlC + KEYS.ctrlC);
    await rendered.exited;
    expect(agent.calls.map((call) => call.text)).toEqual(['hello', '/stop']);
  });

  it('Ctrl+U and the text typed after it, in one read: the line is cleared, then typed', async () => {
    controller = new ChatController(new FakeAgent().connection());
    app = await renderThroughKeyFilter(createElement(App, { controller }));
    await press(app, 'old draft');
    await press(app, '\u0015new');
    expect(frame(app)).toContain('› new');
    expect(frame(app)).not.toContain('old draft');
  });
});
