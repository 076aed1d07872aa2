import type { AgentCard, AgentExtension } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { withCommandsExtension } from '../card.js';
import { CommandRegistry } from '../registry.js';
import { COMMANDS_EXTENSION_URI } from '../spec.js';
import { hasCommandsExtension, readCommands } from './card.js';

const OTHER: AgentExtension = {
  uri: 'https://example.com/ext/other/v1',
  description: 'other',
  required: true,
  params: { anything: [1, 2, 3] },
};

function sdkCard(extensions: AgentExtension[]): AgentCard {
  return {
    name: 'agent',
    description: 'an agent',
    supportedInterfaces: [],
    provider: undefined,
    version: '1.0.0',
    capabilities: { extensions },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: [],
    defaultOutputModes: [],
    skills: [],
    signatures: [],
  };
}

/** A card as JSON off the wire, with only what matters here. */
function jsonCard(params: unknown, others: unknown[] = []): unknown {
  return {
    name: 'agent',
    capabilities: {
      streaming: true,
      extensions: [...others, { uri: COMMANDS_EXTENSION_URI, required: false, params }],
    },
  };
}

const MODEL = {
  name: 'model',
  description: 'Show or choose the model',
  argument_hint: '[<model>]',
};
const HELP = { name: 'help', description: 'List commands', argument_hint: '' };

describe('readCommands (SEMANTICS §1, client side)', () => {
  it('§1: reads the commands of a card the server library built, in order', () => {
    const registry = new CommandRegistry();
    registry.register({ ...MODEL, run: () => '' });
    registry.register({ name: 'help', description: HELP.description, run: () => '' });
    const card = withCommandsExtension(sdkCard([OTHER]), registry);
    expect(readCommands(card)).toEqual([MODEL, HELP]);
    expect(readCommands(JSON.parse(JSON.stringify(card)))).toEqual([MODEL, HELP]);
  });

  it('§1: reads a raw JSON card', () => {
    expect(readCommands(jsonCard({ commands: [HELP, MODEL] }))).toEqual([HELP, MODEL]);
  });

  it('§1: argument_hint defaults to ""', () => {
    const commands = readCommands(jsonCard({ commands: [{ name: 'help', description: 'd' }] }));
    expect(commands).toEqual([{ name: 'help', description: 'd', argument_hint: '' }]);
    expect(Object.keys(commands[0]!)).toEqual(['name', 'description', 'argument_hint']);
  });

  it('§1: returns copies, so changing them does not change the card', () => {
    const card = jsonCard({ commands: [{ ...HELP }] });
    readCommands(card)[0]!.name = 'changed';
    expect(readCommands(card)[0]!.name).toBe('help');
  });

  it('§1: tolerates other extensions, including junk entries', () => {
    const card = jsonCard({ commands: [HELP] }, [OTHER, null, 'x', 42, { uri: 7 }, []]);
    expect(readCommands(card)).toEqual([HELP]);
    expect(hasCommandsExtension(card)).toBe(true);
  });

  it('§1: an empty commands list, or params without commands, gives []', () => {
    expect(readCommands(jsonCard({ commands: [] }))).toEqual([]);
    expect(readCommands(jsonCard({}))).toEqual([]);
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a string', 'card'],
    ['a number', 1],
    ['an array', []],
    ['a card without capabilities', { name: 'a' }],
    ['capabilities that are not an object', { capabilities: 'x' }],
    ['extensions that are not an array', { capabilities: { extensions: {} } }],
    ['a card without the extension', sdkCard([OTHER])],
    ['an entry without params', jsonCard(undefined)],
    ['params that are null', jsonCard(null)],
    ['params that are an array', jsonCard([HELP])],
  ])('§1: %s gives [] without throwing', (_, card) => {
    expect(readCommands(card)).toEqual([]);
  });

  it.each([
    ['an extra key on a command', { commands: [{ ...HELP, hidden: true }] }],
    ['an extra top-level key', { commands: [HELP], more: 1 }],
    ['a command without a description', { commands: [{ name: 'help' }] }],
    ['a name that is not a string', { commands: [{ name: 1, description: 'd' }] }],
    ['commands that is not an array', { commands: HELP }],
  ])('§1: params with %s fail the schema and give []', (_, params) => {
    expect(readCommands(jsonCard(params))).toEqual([]);
  });

  it('§1: entries whose name can never be a command, and repeats, are dropped', () => {
    const params = {
      commands: [HELP, { name: 'Bad', description: 'd' }, { ...HELP, description: 'again' }, MODEL],
    };
    expect(readCommands(jsonCard(params))).toEqual([HELP, MODEL]);
  });

  it('never throws, even when reading the card throws', () => {
    const hostile = {
      get capabilities(): never {
        throw new Error('boom');
      },
    };
    expect(readCommands(hostile)).toEqual([]);
    expect(hasCommandsExtension(hostile)).toBe(false);
  });

  it('reads many cards with the schema compiled once (same results each time)', () => {
    for (let i = 0; i < 50; i++) {
      expect(readCommands(jsonCard({ commands: [HELP] }))).toEqual([HELP]);
      expect(readCommands(jsonCard({ commands: [{ ...HELP, x: 1 }] }))).toEqual([]);
    }
  });
});

describe('hasCommandsExtension', () => {
  it('§1: true when the card lists the extension, in either shape', () => {
    expect(hasCommandsExtension(jsonCard({ commands: [] }))).toBe(true);
    expect(hasCommandsExtension(withCommandsExtension(sdkCard([]), new CommandRegistry()))).toBe(
      true,
    );
  });

  it('§1: true even when the params are invalid (the extension is still declared)', () => {
    expect(hasCommandsExtension(jsonCard({ commands: 'no' }))).toBe(true);
  });

  it.each([undefined, null, {}, { capabilities: {} }, sdkCard([OTHER])])(
    '§1: false for %j',
    (card) => {
      expect(hasCommandsExtension(card)).toBe(false);
    },
  );
});
