import { Ajv } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commandsExtensionParamsSchema } from '../schema/index.js';
import { paramsMatchSchema } from './params.js';

// The reference: the shipped schema, compiled by a full JSON Schema validator.
const schemaSays = new Ajv().compile(commandsExtensionParamsSchema);

const spec = { name: 'model', description: 'Show the model', argument_hint: '[<model>]' };

const CASES: Array<[string, unknown]> = [
  ['no commands key', {}],
  ['an empty list', { commands: [] }],
  ['a full spec', { commands: [spec] }],
  ['a spec without a hint', { commands: [{ name: 'help', description: 'Help' }] }],
  ['a spec whose hint is undefined', { commands: [{ ...spec, argument_hint: undefined }] }],
  ['commands undefined', { commands: undefined }],
  ['an extra params key', { commands: [], other: 1 }],
  ['an extra spec key', { commands: [{ ...spec, hidden: true }] }],
  ['a missing name', { commands: [{ description: 'x' }] }],
  ['a missing description', { commands: [{ name: 'x' }] }],
  ['a numeric name', { commands: [{ name: 1, description: 'x' }] }],
  ['a null hint', { commands: [{ ...spec, argument_hint: null }] }],
  ['commands as an object', { commands: { 0: spec } }],
  ['a null command', { commands: [null] }],
  ['an array command', { commands: [['model']] }],
  ['params as an array', [spec]],
  ['params null', null],
  ['params a string', 'commands'],
  ['a __proto__ key from JSON', JSON.parse('{"commands":[],"__proto__":{"x":1}}')],
];

describe('the card params check agrees with the shipped JSON Schema', () => {
  it.each(CASES)('%s', (_what, params) => {
    expect(paramsMatchSchema(params)).toBe(schemaSays(params));
  });

  it('on generated params, near-valid and not', () => {
    const text = fc.oneof(fc.string(), fc.constantFrom('model', 'help', ''));
    const value = fc.oneof(
      text,
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
    );
    const key = fc.constantFrom('name', 'description', 'argument_hint', 'other', 'commands');
    const commandSpec = fc.oneof(
      fc.record(
        { name: text, description: text, argument_hint: text },
        { requiredKeys: ['name', 'description'] },
      ),
      fc.dictionary(key, value, { maxKeys: 4 }),
      value,
    );
    const params = fc.oneof(
      fc.record({ commands: fc.array(commandSpec, { maxLength: 4 }) }, { requiredKeys: [] }),
      fc.dictionary(key, fc.oneof(value, fc.array(commandSpec, { maxLength: 3 })), { maxKeys: 3 }),
      fc.array(commandSpec, { maxLength: 2 }),
      value,
    );
    fc.assert(
      fc.property(params, (p) => {
        expect(paramsMatchSchema(p)).toBe(schemaSays(p));
      }),
      { numRuns: 2000 },
    );
  });
});
