/**
 * Argument completion in the terminal chat, end to end: the real CLI in a tmux
 * pseudo-terminal against a harness with two models (a fake OpenAI-compatible
 * server behind it). `/model ` lists the models with their provider; Tab takes
 * the highlighted one; Enter runs the command with it. And the chats' Enter
 * rule against the harness: a highlighted entry is taken and, when the line is
 * then a whole command, sent.
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { cliCommand, hasTmux, TmuxTerminal } from 'a2a-testing/chat-terminal';
import { startFakeOpenAI, type FakeOpenAI } from 'a2a-testing/fake-openai';
import { startHarness, type TestHarness } from 'a2a-testing/harness';

let fake: FakeOpenAI;
let harness: TestHarness;
let terminal: TmuxTerminal | undefined;

beforeAll(async () => {
  fake = await startFakeOpenAI({ models: ['gpt-fast', 'gpt-smart'], reply: () => 'ok' });
  harness = await startHarness({
    env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseUrl },
  });
});
afterAll(async () => {
  await harness?.stop();
  await fake?.close();
});
afterEach(() => terminal?.kill());

it('has tmux to drive the chat (.ci/run installs it)', () => {
  expect(hasTmux(), 'tmux is not installed: apt-get install -y tmux').toBe(true);
});

it('"/model " offers the models; arrows move, Tab takes one, Enter runs it', async () => {
  const models = (await harness.harness.catalog.list()).map((model) => model.id);
  expect(models).toEqual(expect.arrayContaining(['openai/gpt-fast', 'openai/gpt-smart']));
  terminal = TmuxTerminal.start(cliCommand(['chat', harness.url]), { columns: 100, rows: 30 });
  await terminal.waitFor('Connected to a2a-harness', 60_000);

  terminal.type('/model ');
  const offered = await terminal.waitFor('Tab takes model');
  // Every model, in the agent's order, the first highlighted, each with its provider.
  const rows = offered.split('\n').filter((row) => /^[❯ ] \S+\/\S+\s+\S+/.test(row));
  expect(rows.map((row) => row.slice(2).split(/\s+/)[0])).toEqual(models);
  expect(rows[0]).toMatch(
    new RegExp(`^❯ ${models[0]!.replace('/', '\\/')}\\s+${models[0]!.split('/')[0]}`),
  );

  // Down to openai/gpt-smart, then Tab takes it.
  const target = models.indexOf('openai/gpt-smart');
  for (let i = 0; i < target; i++) terminal.keys('Down');
  await terminal.waitFor(/❯ openai\/gpt-smart/);
  terminal.keys('Tab');
  await terminal.waitFor('› /model openai/gpt-smart');
  expect(terminal.screen()).not.toContain('Tab takes model');

  terminal.keys('Enter');
  await terminal.waitFor('┃ /model · command reply');
  await terminal.waitFor('Model set to openai/gpt-smart');
}, 120_000);

it('typing narrows the values; /title offers none and shows its hint', async () => {
  terminal = TmuxTerminal.start(cliCommand(['chat', harness.url]), { columns: 100, rows: 30 });
  await terminal.waitFor('Connected to a2a-harness', 60_000);
  terminal.type('/model openai/gpt-f');
  const narrowed = await terminal.waitFor(/❯ openai\/gpt-fast/);
  expect(narrowed).not.toContain('gpt-smart');
  terminal.keys('Tab');
  await terminal.waitFor('› /model openai/gpt-fast');

  terminal.keys('C-u');
  // Wait for the empty line: under load, a key sent at once could arrive in the same read.
  await terminal.waitFor('›  Type a message');
  terminal.type('/title ');
  await terminal.waitFor('› /title  [<title>]');
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(terminal.screen()).not.toContain('Tab takes');
}, 120_000);

it('the Enter rule: /model smart, /help mo and /sta each run on one Enter with the highlighted entry', async () => {
  terminal = TmuxTerminal.start(cliCommand(['chat', harness.url]), { columns: 100, rows: 30 });
  await terminal.waitFor('Connected to a2a-harness', 60_000);

  terminal.type('/model smart');
  await terminal.waitFor(/❯ openai\/gpt-smart/);
  terminal.keys('Enter');
  await terminal.waitFor('┃ /model · command reply');
  await terminal.waitFor(/(Model set to|The model is already) openai\/gpt-smart/);

  terminal.type('/help mo');
  await terminal.waitFor(/❯ model/);
  terminal.keys('Enter');
  await terminal.waitFor('┃ /help · command reply');
  expect(terminal.screen()).toContain('/help model');

  terminal.type('/sta');
  await terminal.waitFor(/❯ \/status/);
  terminal.keys('Enter');
  await terminal.waitFor('┃ /status · command reply');
  // Sent and cleared: the input is empty again.
  await terminal.waitFor('›  Type a message');
}, 120_000);
