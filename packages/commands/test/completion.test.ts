/** The command completion extension (docs/spec/command-completion-v1.txt), over real HTTP. */
import { TaskState, type AgentCard } from '@a2a-js/sdk';
import type { User } from '@a2a-js/sdk/server';
import { Ajv } from 'ajv';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMMAND_COMPLETION_EXTENSION_URI,
  COMMANDS_EXTENSION_URI,
  commandCompletionParamsSchema,
  commandsExtensionParamsSchema,
  completionResponseSchema,
  type CommandCompletionParams,
} from 'a2a-commands';
import { readCommands } from 'a2a-commands/client';
import {
  completeArgument,
  completeInput,
  readCompletion,
  requestCompletion,
  takeValue,
  CompletionRequestError,
  argumentPosition,
} from 'a2a-commands/client/completion';
import { createCommandsServer, type CommandsServer } from 'a2a-commands/server';
import { commandsRoutes } from 'a2a-commands/express';
import { createExampleAgent } from '../examples/agent.js';
import { echoExecutor } from '../examples/echo-executor.js';
import { listen, rpc, userText, type Listening } from 'a2a-testing/http';

class NamedUser implements User {
  constructor(readonly userName: string) {}
  get isAuthenticated() {
    return true;
  }
}

const ajv = new Ajv({ allErrors: true, strict: true });
const validResponse = ajv.compile(completionResponseSchema);

function baseCard(baseUrl: string): AgentCard {
  return {
    name: 'completion test agent',
    description: 'Commands with arguments to complete',
    version: '1.0.0',
    supportedInterfaces: [
      {
        url: `${baseUrl}/a2a/jsonrpc`,
        protocolBinding: 'JSONRPC',
        tenant: '',
        protocolVersion: '1.0',
      },
    ],
    capabilities: { streaming: true, extensions: [] },
    provider: undefined,
    skills: [],
    signatures: [],
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
  };
}

let agent: Listening;
let server: CommandsServer;
let card: unknown;
let completion: CommandCompletionParams;

beforeAll(async () => {
  const app = express();
  agent = await listen(app);
  server = createCommandsServer({
    agentCard: baseCard(agent.baseUrl),
    executor: echoExecutor(),
    completion: { endpoint: `${agent.baseUrl}/a2a/complete`, maxValues: 50 },
  });
  server.registry.register({
    name: 'deploy',
    description: 'Deploy to an environment',
    argument_hint: '<environment> [<region>]',
    arguments: [
      {
        name: 'environment',
        choices: [
          { value: 'staging' },
          { value: 'production', description: 'Live traffic' },
          { value: 'preview' },
        ],
      },
      { name: 'region', choices: [{ value: 'eu-west' }, { value: 'us-east' }] },
    ],
    run: ({ args }) => `deploying ${args}`,
  });
  server.registry.register({
    name: 'open',
    description: 'Open one of your tasks',
    argument_hint: '<task>',
    arguments: [
      {
        name: 'task',
        // Reads through the caller's call context: the store scopes the list to them.
        complete: async ({ callContext, contextId }) => {
          const { tasks } = await server.store.list(
            {
              tenant: '',
              contextId: contextId ?? '',
              status: TaskState.TASK_STATE_UNSPECIFIED,
              pageToken: '',
              pageSize: 100,
              historyLength: 0,
              statusTimestampAfter: undefined,
              includeArtifacts: false,
            },
            callContext,
          );
          return tasks.map((task) => ({ value: task.id, description: 'a task' }));
        },
      },
    ],
    run: ({ args }) => `opening ${args}`,
  });
  server.registry.register({
    name: 'count',
    description: 'Pick a number',
    arguments: [
      {
        name: 'n',
        complete: () =>
          Array.from({ length: 120 }, (_, i) => ({ value: `n-${String(i).padStart(3, '0')}` })),
      },
    ],
    run: ({ args }) => args,
  });
  server.registry.register({ name: 'echo', description: 'Repeat', run: ({ args }) => args });
  const userBuilder = async (req: express.Request) =>
    new NamedUser(req.header('x-user') ?? 'anonymous');
  app.use(commandsRoutes(server, { userBuilder }));
  card = await (await fetch(`${agent.baseUrl}/.well-known/agent-card.json`)).json();
  completion = readCompletion(card)!;
});
afterAll(() => agent.close());

const as = (user: string) => ({ headers: { 'x-user': user } });

async function newTask(user: string, text = '/echo hi') {
  const { body } = await rpc(agent.baseUrl, 'SendMessage', { message: userText(text) }, as(user));
  return body.result.task as { id: string; contextId: string };
}

describe('the card', () => {
  it('keeps the Commands v1 entry exactly as its schema says, and adds a second entry', () => {
    const extensions = (card as AgentCard).capabilities!.extensions!;
    expect(extensions.map((ext) => ext.uri)).toEqual([
      COMMANDS_EXTENSION_URI,
      COMMAND_COMPLETION_EXTENSION_URI,
    ]);
    expect(ajv.validate(commandsExtensionParamsSchema, extensions[0]!.params)).toBe(true);
    expect(ajv.validate(commandCompletionParamsSchema, extensions[1]!.params)).toBe(true);
    for (const command of (extensions[0]!.params as { commands: object[] }).commands) {
      expect(Object.keys(command).sort()).toEqual(['argument_hint', 'description', 'name']);
    }
  });

  it('declares choices, marks completers dynamic, and leaves out commands without arguments', () => {
    expect(completion.endpoint).toBe(`${agent.baseUrl}/a2a/complete`);
    expect(completion.commands.map((c) => c.name)).toEqual(['deploy', 'open', 'count']);
    expect(completion.commands[0]!.arguments[0]!.choices).toContainEqual({
      value: 'production',
      description: 'Live traffic',
    });
    expect(completion.commands[1]!.arguments).toEqual([{ name: 'task', dynamic: true }]);
  });
});

describe('declared choices', () => {
  it('are matched on the client, without a request', async () => {
    let requests = 0;
    const counting: typeof fetch = (...args) => {
      requests++;
      return fetch(...args);
    };
    const values = await completeArgument('/deploy p', completion, { fetch: counting });
    expect(values?.source).toBe('choices');
    expect(values?.values.map((v) => v.value)).toEqual(['production', 'preview']);
    const second = await completeArgument('/deploy staging ', completion, { fetch: counting });
    expect(second?.argument.name).toBe('region');
    expect(second?.values.map((v) => v.value)).toEqual(['eu-west', 'us-east']);
    expect(requests).toBe(0);
  });

  it('are answered by the endpoint too, in the response schema', async () => {
    const answer = await requestCompletion(completion.endpoint, {
      command: 'deploy',
      argument: { index: 0, value: 'STA' },
    });
    expect(answer).toEqual({ values: [{ value: 'staging' }], has_more: false });
    expect(validResponse(answer)).toBe(true);
  });
});

describe('values from the agent', () => {
  it("are the caller's own: another principal's tasks never appear", async () => {
    const alice1 = await newTask('alice');
    const alice2 = await newTask('alice');
    const bob = await newTask('bob');
    const forAlice = await completeArgument('/open ', completion, as('alice'));
    expect(forAlice?.source).toBe('agent');
    const ids = forAlice!.values.map((v) => v.value);
    expect(ids).toEqual(expect.arrayContaining([alice1.id, alice2.id]));
    expect(ids).not.toContain(bob.id);
    const forBob = await completeArgument('/open ', completion, as('bob'));
    expect(forBob!.values.map((v) => v.value)).toEqual([bob.id]);
  });

  it('refuse a task the caller may not see as if it did not exist', async () => {
    const bob = await newTask('bob');
    const refused = completeArgument('/open ', completion, { ...as('alice'), taskId: bob.id });
    await expect(refused).rejects.toMatchObject({ status: 404, code: 'task-not-found' });
    const own = await completeArgument('/open ', completion, { ...as('bob'), taskId: bob.id });
    expect(own!.values.map((v) => v.value)).toContain(bob.id);
  });

  it('are capped, and say when there are more', async () => {
    const all = await completeArgument('/count ', completion);
    expect(all!.values).toHaveLength(50);
    expect(all!.hasMore).toBe(true);
    const narrowed = await completeArgument('/count n-11', completion);
    expect(narrowed!.values.map((v) => v.value)).toEqual(
      Array.from({ length: 10 }, (_, i) => `n-11${i}`),
    );
    expect(narrowed!.hasMore).toBe(false);
  });

  it("never touch the task's history, state or metadata", async () => {
    const task = await newTask('carol');
    const read = async () =>
      (await rpc(agent.baseUrl, 'GetTask', { id: task.id, historyLength: 100 }, as('carol'))).body
        .result;
    const before = await read();
    for (const input of ['/open ', '/count n', '/deploy s']) {
      await completeArgument(input, completion, { ...as('carol'), taskId: task.id });
    }
    await requestCompletion(
      completion.endpoint,
      { command: 'open', argument: { index: 0, value: '' }, task_id: task.id },
      as('carol'),
    );
    expect(await read()).toEqual(before);
    expect(before.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  });
});

describe('refusals', () => {
  it('an unknown command is 404 unknown-command', async () => {
    const refused = requestCompletion(completion.endpoint, {
      command: 'nope',
      argument: { index: 0, value: '' },
    });
    await expect(refused).rejects.toBeInstanceOf(CompletionRequestError);
    await expect(refused).rejects.toMatchObject({ status: 404, code: 'unknown-command' });
  });

  it('a body off the schema, or not JSON, is 400 invalid-request', async () => {
    for (const body of [
      '{"command": "deploy"}',
      'not json',
      '{"command":"deploy","argument":{"index":-1,"value":""}}',
    ]) {
      const response = await fetch(completion.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
        'invalid-request',
      );
    }
  });

  it('an argument the command does not declare offers nothing', async () => {
    const answer = await requestCompletion(completion.endpoint, {
      command: 'deploy',
      argument: { index: 5, value: '' },
    });
    expect(answer).toEqual({ values: [], has_more: false });
  });
});

describe('completeInput merges names and values', () => {
  it('names while the name is typed, values after it, the hint otherwise', async () => {
    const commands = readCommands(card);
    const names = await completeInput('/de', commands, completion);
    expect(names.kind === 'names' && names.names.map((c) => c.command.name)).toEqual(['deploy']);
    const values = await completeInput('/deploy pr', commands, completion);
    expect(values.kind).toBe('values');
    if (values.kind !== 'values') return;
    expect(values.values.map((v) => v.value)).toEqual(['production', 'preview']);
    expect(takeValue('/deploy pr', values.position, 'production')).toBe('/deploy production');
    expect(await completeInput('/echo ', commands, completion)).toEqual({
      kind: 'hint',
      command: commands.find((c) => c.name === 'echo'),
      hint: '',
    });
  });

  it('argumentPosition follows SEMANTICS §2 separators', () => {
    expect(argumentPosition('/deploy')).toBeUndefined();
    expect(argumentPosition('/deploy\tstaging eu')).toMatchObject({
      index: 1,
      value: 'eu',
      previous: ['staging'],
    });
  });
});

describe('an agent without the companion extension', () => {
  it('has no completion entry: clients fall back to the hint, and there is no route', async () => {
    const example = createExampleAgent('http://127.0.0.1');
    const plain = await listen(example.app);
    try {
      const plainCard = await (await fetch(`${plain.baseUrl}/.well-known/agent-card.json`)).json();
      expect(readCompletion(plainCard)).toBeUndefined();
      const commands = readCommands(plainCard);
      const offered = await completeInput('/echo ', commands, readCompletion(plainCard));
      expect(offered).toMatchObject({ kind: 'hint', hint: '<text>' });
      const route = await fetch(`${plain.baseUrl}/a2a/complete`, { method: 'POST', body: '{}' });
      expect(route.status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
