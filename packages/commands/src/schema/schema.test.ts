import { Ajv } from 'ajv';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { commandsExtension, withCommandsExtension } from '../card.js';
import { CommandRegistry } from '../registry.js';
import { COMMANDS_EXTENSION_URI } from '../spec.js';
import { commandsExtensionParamsSchema } from './index.js';

/*
 * Contract test: what the library puts on the card must validate against the
 * schema it ships, and the shipped schema must be the one in the spec text.
 */

const schemaPath = fileURLToPath(new URL('./commands-extension-v1.schema.json', import.meta.url));
const specPath = fileURLToPath(
  new URL('../../../../docs/spec/commands-extension-v1.txt', import.meta.url),
);
const shipped = JSON.parse(readFileSync(schemaPath, 'utf8')) as Record<string, unknown>;
const validate = new Ajv({ allErrors: true, strict: true }).compile(shipped);

/** The top-level JSON blocks of the spec text: lines from a `{` to a `}` at column 0. */
function jsonBlocks(text: string): unknown[] {
  const blocks: unknown[] = [];
  let current: string[] | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (current === undefined && line.startsWith('{')) current = [];
    if (current === undefined) continue;
    current.push(line);
    if (line.startsWith('}')) {
      blocks.push(JSON.parse(current.join('\n')));
      current = undefined;
    }
  }
  return blocks;
}

function registryWith(count: number): CommandRegistry {
  const registry = new CommandRegistry();
  for (let i = 0; i < count; i++) {
    registry.register({
      name: i === 0 ? 'model' : `cmd-${i}`,
      description: `command number ${i}`,
      argument_hint: i % 2 === 0 ? '[<model>]' : undefined,
      run: () => '',
    });
  }
  return registry;
}

describe('the shipped schema (contract)', () => {
  it.each([0, 1, 50])('§1: the params generated for %i commands validate', (count) => {
    const params = commandsExtension(registryWith(count)).params;
    expect(validate(params), JSON.stringify(validate.errors)).toBe(true);
    expect((params as { commands: unknown[] }).commands).toHaveLength(count);
  });

  it('§1: the params on a card validate after a JSON round trip', () => {
    const card = withCommandsExtension(
      {
        name: 'a',
        description: 'b',
        supportedInterfaces: [],
        provider: undefined,
        version: '1',
        capabilities: { extensions: [] },
        securitySchemes: {},
        securityRequirements: [],
        defaultInputModes: [],
        defaultOutputModes: [],
        skills: [],
        signatures: [],
      },
      registryWith(3),
    );
    const wire = JSON.parse(JSON.stringify(card)) as {
      capabilities: { extensions: { uri: string; params: unknown }[] };
    };
    const entry = wire.capabilities.extensions.find((e) => e.uri === COMMANDS_EXTENSION_URI);
    expect(validate(entry?.params)).toBe(true);
  });

  it('§1: an extra key on a command is rejected (additionalProperties: false)', () => {
    const params = {
      commands: [{ name: 'help', description: 'd', argument_hint: '', hidden: true }],
    };
    expect(validate(params)).toBe(false);
    expect(validate.errors?.[0]?.keyword).toBe('additionalProperties');
  });

  it.each([
    ['an extra top-level key', { commands: [], version: 1 }],
    ['a command without a description', { commands: [{ name: 'help' }] }],
    ['a command without a name', { commands: [{ description: 'd' }] }],
    [
      'a non-string argument_hint',
      { commands: [{ name: 'a', description: 'd', argument_hint: 1 }] },
    ],
    ['commands that is not an array', { commands: {} }],
    ['params that are not an object', []],
  ])('§1: %s is rejected', (_, params) => {
    expect(validate(params)).toBe(false);
  });

  it('§1: argument_hint may be left out (it defaults to "")', () => {
    expect(validate({ commands: [{ name: 'help', description: 'd' }] })).toBe(true);
    expect(validate({})).toBe(true);
  });

  it('the shipped JSON is the schema the package exports', () => {
    expect(shipped).toEqual(commandsExtensionParamsSchema);
  });

  it('the shipped JSON is the schema in the spec text', () => {
    const blocks = jsonBlocks(readFileSync(specPath, 'utf8'));
    const fromSpec = blocks.find((block) => (block as { $id?: unknown }).$id !== undefined);
    expect(fromSpec).toBeDefined();
    expect(shipped).toEqual(fromSpec);
  });

  it('the card example in the spec text validates', () => {
    const example = jsonBlocks(readFileSync(specPath, 'utf8')).find(
      (block) => (block as { uri?: unknown }).uri === COMMANDS_EXTENSION_URI,
    ) as { required: boolean; params: unknown } | undefined;
    expect(example).toBeDefined();
    expect(example!.required).toBe(false);
    expect(validate(example!.params)).toBe(true);
  });
});
