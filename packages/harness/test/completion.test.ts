/**
 * The command completion extension on the harness, over real HTTP: /model gives
 * the caller's models, /help the command names, custom commands their declared
 * choices, /fork and /title nothing; behind the same keys as A2A.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { Ajv } from 'ajv';
import {
  COMMAND_COMPLETION_EXTENSION_URI,
  COMMANDS_EXTENSION_URI,
  commandCompletionParamsSchema,
  commandsExtensionParamsSchema,
  completionResponseSchema,
  type CommandCompletionParams,
} from 'a2a-commands';
import {
  completeArgument,
  readCompletion,
  requestCompletion,
} from 'a2a-commands/client/completion';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeys, parseApiKeyList } from '../src/serve/api-keys.js';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { rpc, userText, waitFor } from 'a2a-testing/http';

const ALICE = 'alice-key-0123456789abcdef';
const BOB = 'bob-key-0123456789abcdef';
const as = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });

const DEPLOY = `---
description: Deploy the service
argument-hint: "<environment> [<region>]"
arguments:
  - name: environment
    choices:
      - staging
      - value: production
        description: Live traffic
  - name: region
    choices: [eu-west, us-east]
---
Deploy to $1 in $2.
`;

let harness: TestHarness;
let card: Record<string, any>;
let completion: CommandCompletionParams;
const ajv = new Ajv({ allErrors: true, strict: true });

beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-completion-'));
  mkdirSync(path.join(dataDir, 'commands'), { recursive: true });
  writeFileSync(path.join(dataDir, 'commands', 'deploy.md'), DEPLOY);
  harness = await startHarness({
    dataDir,
    apiKeys: new ApiKeys(parseApiKeyList(`alice=${ALICE},bob=${BOB}`)),
  });
  card = (await (await fetch(`${harness.url}/.well-known/agent-card.json`)).json()) as Record<
    string,
    any
  >;
  completion = readCompletion(card)!;
});
afterAll(() => harness.stop());

async function valuesFor(input: string, key = ALICE, taskId?: string) {
  const answer = await completeArgument(input, completion, { ...as(key), taskId });
  return answer?.values.map((v) => v.value);
}

describe("the harness's card", () => {
  it('validates against both schemas, with completion as a second entry', () => {
    const [commands, completionEntry] = card.capabilities.extensions;
    expect(commands.uri).toBe(COMMANDS_EXTENSION_URI);
    expect(ajv.validate(commandsExtensionParamsSchema, commands.params)).toBe(true);
    expect(completionEntry.uri).toBe(COMMAND_COMPLETION_EXTENSION_URI);
    expect(ajv.validate(commandCompletionParamsSchema, completionEntry.params)).toBe(true);
    expect(completion.endpoint).toBe(`${harness.url}/a2a/complete`);
  });

  it('lists /help and /model as dynamic, /deploy with its choices, and not /fork or /title', () => {
    const byName = new Map(completion.commands.map((c) => [c.name, c.arguments]));
    expect(byName.get('help')).toEqual([{ name: 'command', dynamic: true }]);
    expect(byName.get('model')).toEqual([{ name: 'model', dynamic: true }]);
    expect(byName.get('deploy')?.[0]?.choices).toEqual([
      { value: 'staging' },
      { value: 'production', description: 'Live traffic' },
    ]);
    expect(byName.has('fork')).toBe(false);
    expect(byName.has('title')).toBe(false);
  });
});

describe('values', () => {
  it("/model gives the caller's models, described by provider", async () => {
    const models = (await harness.harness.catalog.list()).map((m) => m.id);
    expect(models.length).toBeGreaterThan(0);
    const answer = await completeArgument('/model ', completion, as(ALICE));
    expect(answer?.source).toBe('agent');
    expect(answer?.values.map((v) => v.value)).toEqual(models);
    expect(answer?.values[0]?.description).toBe(models[0]!.split('/')[0]);
    expect(
      ajv.validate(completionResponseSchema, { values: answer?.values, has_more: false }),
    ).toBe(true);
  });

  it('/help gives the command names, narrowed by what is typed', async () => {
    const names = harness.harness.registry.list().map((c) => c.name);
    expect(await valuesFor('/help ')).toEqual(names);
    // Rule 3: names that start with it first, then names that contain it.
    expect(await valuesFor('/help st')).toEqual(['status', 'stop', 'system']);
  });

  it("a custom command's declared choices, per positional argument", async () => {
    expect(await valuesFor('/deploy ')).toEqual(['staging', 'production']);
    expect(await valuesFor('/deploy production eu')).toEqual(['eu-west']);
  });

  it('/fork and /title offer nothing: the endpoint answers no values', async () => {
    for (const command of ['fork', 'title']) {
      const answer = await requestCompletion(
        completion.endpoint,
        { command, argument: { index: 0, value: '' } },
        as(ALICE),
      );
      expect(answer).toEqual({ values: [], has_more: false });
      expect(await completeArgument(`/${command} `, completion, as(ALICE))).toBeUndefined();
    }
  });
});

describe('access', () => {
  it('needs a key, like the A2A bindings', async () => {
    const response = await fetch(completion.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ command: 'model', argument: { index: 0, value: '' } }),
    });
    expect(response.status).toBe(401);
  });

  it("refuses another principal's task as if it did not exist, and reads nothing into it", async () => {
    const { body } = await rpc(
      harness.url,
      'SendMessage',
      { message: userText('/title Mine') },
      as(BOB),
    );
    const bobTask = body.result.task.id as string;
    await expect(valuesFor('/model ', ALICE, bobTask)).rejects.toMatchObject({
      status: 404,
      code: 'task-not-found',
    });
    const read = async () =>
      (await rpc(harness.url, 'GetTask', { id: bobTask, historyLength: 50 }, as(BOB))).body.result;
    const before = await read();
    expect(await valuesFor('/model ', BOB, bobTask)).not.toHaveLength(0);
    expect(await valuesFor('/help ', BOB, bobTask)).not.toHaveLength(0);
    expect(await read()).toEqual(before);
  });

  it('an unknown command is 404 unknown-command', async () => {
    await expect(
      requestCompletion(
        completion.endpoint,
        { command: 'nope', argument: { index: 0, value: '' } },
        as(ALICE),
      ),
    ).rejects.toMatchObject({ status: 404, code: 'unknown-command' });
  });
});

describe('a command file edited while the harness runs', () => {
  const release = (choices: string) =>
    `---\ndescription: Release a build\narguments:\n  - name: channel\n    choices: [${choices}]\n---\nRelease to $1.\n`;
  const choicesOnCard = async () => {
    const fresh = (await (
      await fetch(`${harness.url}/.well-known/agent-card.json`)
    ).json()) as Record<string, any>;
    const entry = readCompletion(fresh)?.commands.find((c) => c.name === 'release');
    return entry?.arguments?.[0]?.choices?.map((c) => c.value).join(',');
  };

  it('whose only change is its arguments is read again: the card and completion follow', async () => {
    const file = path.join(harness.dataDir, 'commands', 'release.md');
    writeFileSync(file, release('beta'));
    await waitFor(async () => ((await choicesOnCard()) === 'beta' ? true : undefined), '/release');

    writeFileSync(file, release('beta, stable'));
    await waitFor(
      async () => ((await choicesOnCard()) === 'beta,stable' ? true : undefined),
      'the new choices on the card',
    );
    const answer = await requestCompletion(
      completion.endpoint,
      { command: 'release', argument: { index: 0, value: '' } },
      as(ALICE),
    );
    expect(answer.values.map((v) => v.value)).toEqual(['beta', 'stable']);
  });
});
