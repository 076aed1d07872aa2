/**
 * Typed replies: the data part of every built-in command's real reply, over
 * HTTP, validates against the schema the library publishes for it.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { commandRefusalSchema } from 'a2a-commands';
import { builtinReplySchemas } from '../src/commands/reply-schemas/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinCommands } from '../src/commands/builtins/index.js';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { rpc, userText } from 'a2a-testing/http';

const ajv = new Ajv({ allErrors: true, strict: true });
const validators = new Map<string, ValidateFunction>(
  Object.entries(builtinReplySchemas).map(([name, schema]) => [name, ajv.compile(schema)]),
);

let harness: TestHarness;
let taskId: string;
beforeAll(async () => {
  harness = await startHarness();
  const { body } = await rpc(harness.url, 'SendMessage', { message: userText('Hello') });
  taskId = body.result.task.id;
});
afterAll(() => harness.stop());

/** Runs `text` on the shared task; returns the command name and the reply's data part. */
async function dataOf(text: string): Promise<{ command: string; data: unknown }> {
  const { body } = await rpc(harness.url, 'SendMessage', { message: userText(text, { taskId }) });
  const reply = body.result.task.status.message;
  const part = reply.parts.find((p: { data?: unknown }) => p.data !== undefined);
  return { command: reply.metadata.command, data: part?.data };
}

describe('the published schemas', () => {
  it('cover every built-in command, and compile in strict mode', () => {
    const names = builtinCommands.map((make) => make({} as never).name).sort();
    expect(Object.keys(builtinReplySchemas).sort()).toEqual(names);
  });

  it('reject a reply that is not what the command sends', () => {
    const model = validators.get('model')!;
    expect(model({ current: 'offline/echo', models: [] })).toBe(true);
    expect(model({ current: 'offline/echo', models: [], extra: 1 })).toBe(false);
    expect(model({ error: 'unknown_model', current: 'offline/echo', models: [] })).toBe(true);
    expect(model({ error: 'other', current: 'offline/echo', models: [] })).toBe(false);
    expect(model({ current: 3, models: [] })).toBe(false);
    expect(validators.get('title')!({ commands: [] })).toBe(false);
  });

  it('accept the shared refusal for any command, and only with a kebab-case code', () => {
    const refusal = { error: { code: 'missing-argument', message: '/spawn needs <prompt>' } };
    for (const validate of validators.values()) expect(validate(refusal)).toBe(true);
    expect(ajv.validate(commandRefusalSchema, refusal)).toBe(true);
    expect(ajv.validate(commandRefusalSchema, { error: { code: 'Not_Kebab', message: 'x' } })).toBe(
      false,
    );
  });
});

describe("real replies validate against their command's schema", () => {
  it.each([
    '/help',
    '/help model',
    '/help nosuch',
    '/model',
    '/model offline/echo',
    '/model nowhere/none',
    '/status',
    '/system Be brief.',
    '/system',
    '/system --bogus',
    '/system --clear',
    '/title A title',
    '/title',
    `/title ${'x'.repeat(500)}`,
    '/clear',
    '/clear now',
    '/fork',
    '/fork A fork',
    '/spawn write a haiku',
    '/spawn',
    '/tasks',
    '/stop',
    '/stop now',
  ])('%s', async (text) => {
    const { command, data } = await dataOf(text);
    expect(data).toBeDefined();
    const validate = validators.get(command)!;
    expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
  });
});
