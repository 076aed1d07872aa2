import { AgentCard, type AgentExtension } from '@a2a-js/sdk';
import { describe, expect, it, vi } from 'vitest';
import { cardToJson, commandsExtension, CommandsCard, withCommandsExtension } from './card.js';
import { CommandRegistry } from './registry.js';
import { COMMANDS_EXTENSION_URI } from './spec.js';

const OTHER: AgentExtension = {
  uri: 'https://example.com/ext/other/v1',
  description: 'another extension',
  required: true,
  params: { keep: 'me' },
};

function baseCard(extensions: AgentExtension[] = []): AgentCard {
  return {
    name: 'Test agent',
    description: 'An agent for tests',
    supportedInterfaces: [
      {
        url: 'http://localhost/a2a',
        protocolBinding: 'JSONRPC',
        tenant: '',
        protocolVersion: '1.0',
      },
    ],
    provider: undefined,
    version: '1.0.0',
    capabilities: { streaming: true, extensions },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
    signatures: [],
  };
}

function registryOf(...names: string[]): CommandRegistry {
  const registry = new CommandRegistry();
  for (const name of names) {
    registry.register({
      name,
      description: `the ${name} command`,
      argument_hint: name === 'model' ? '[<model>]' : undefined,
      run: () => name,
    });
  }
  return registry;
}

function commandsEntries(card: AgentCard): AgentExtension[] {
  return (card.capabilities?.extensions ?? []).filter((e) => e.uri === COMMANDS_EXTENSION_URI);
}

describe('withCommandsExtension (SEMANTICS §1)', () => {
  it('§1: adds the extension entry with required: false', () => {
    const card = withCommandsExtension(baseCard(), registryOf('help'));
    const entries = commandsEntries(card);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.required).toBe(false);
    expect(entries[0]!.uri).toBe(COMMANDS_EXTENSION_URI);
  });

  it('§1: lists the commands in registration order', () => {
    const card = withCommandsExtension(baseCard(), registryOf('zeta', 'model', 'alpha'));
    expect(commandsEntries(card)[0]!.params).toEqual({
      commands: [
        { name: 'zeta', description: 'the zeta command', argument_hint: '' },
        { name: 'model', description: 'the model command', argument_hint: '[<model>]' },
        { name: 'alpha', description: 'the alpha command', argument_hint: '' },
      ],
    });
  });

  it('§1: every command has exactly the three keys name, description, argument_hint', () => {
    const card = withCommandsExtension(baseCard(), registryOf('help', 'model', 'x9'));
    const params = commandsEntries(card)[0]!.params as { commands: object[] };
    expect(Object.keys(params)).toEqual(['commands']);
    for (const command of params.commands) {
      expect(Object.keys(command)).toEqual(['name', 'description', 'argument_hint']);
    }
  });

  it('§1: an empty registry gives an empty commands list', () => {
    const card = withCommandsExtension(baseCard(), new CommandRegistry());
    expect(commandsEntries(card)[0]!.params).toEqual({ commands: [] });
  });

  it('§1: replaces an existing entry with the same URI rather than adding a second', () => {
    const stale: AgentExtension = {
      uri: COMMANDS_EXTENSION_URI,
      description: 'stale',
      required: true,
      params: { commands: [{ name: 'old', description: 'old', argument_hint: '' }] },
    };
    const card = withCommandsExtension(baseCard([stale, OTHER]), registryOf('help'));
    const entries = commandsEntries(card);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.required).toBe(false);
    expect(entries[0]!.params).toEqual({
      commands: [{ name: 'help', description: 'the help command', argument_hint: '' }],
    });
  });

  it('§1: applying it twice still gives one entry', () => {
    const registry = registryOf('help');
    const card = withCommandsExtension(withCommandsExtension(baseCard(), registry), registry);
    expect(commandsEntries(card)).toHaveLength(1);
  });

  it('§1: leaves other extensions and card fields alone', () => {
    const base = baseCard([OTHER]);
    const card = withCommandsExtension(base, registryOf('help'));
    expect(card.capabilities?.extensions).toContainEqual(OTHER);
    expect(card.capabilities?.extensions).toHaveLength(2);
    expect(card.capabilities?.streaming).toBe(true);
    expect(card.name).toBe(base.name);
    expect(card.supportedInterfaces).toEqual(base.supportedInterfaces);
  });

  it('§1: does not mutate the base card', () => {
    const base = baseCard([OTHER]);
    const before = JSON.parse(JSON.stringify(base)) as unknown;
    withCommandsExtension(base, registryOf('help'));
    expect(base).toEqual(before);
  });

  it('§1: works on a card without capabilities', () => {
    const card = withCommandsExtension(
      { ...baseCard(), capabilities: undefined },
      registryOf('help'),
    );
    expect(commandsEntries(card)).toHaveLength(1);
  });

  it('§1: the params are a copy: mutating them does not change the registry', () => {
    const registry = registryOf('help');
    const entry = commandsExtension(registry);
    (entry.params as { commands: { name: string }[] }).commands[0]!.name = 'hacked';
    expect(registry.specs()[0]!.name).toBe('help');
  });
});

describe('CommandsCard (SEMANTICS §1: later registrations appear on the card)', () => {
  it('§1: follows register and unregister', async () => {
    const registry = registryOf('help');
    const served = new CommandsCard(baseCard([OTHER]), registry);
    const names = (card: AgentCard) =>
      (commandsEntries(card)[0]!.params as { commands: { name: string }[] }).commands.map(
        (c) => c.name,
      );
    expect(names(served.current)).toEqual(['help']);
    registry.register({ name: 'plugin', description: 'from a plugin', run: () => '' });
    expect(names(served.current)).toEqual(['help', 'plugin']);
    expect(names(await served.provider())).toEqual(['help', 'plugin']);
    registry.unregister('help');
    expect(names(served.current)).toEqual(['plugin']);
    expect(served.current.capabilities?.extensions).toContainEqual(OTHER);
  });

  it('§1: the etag changes when the card changes', () => {
    const registry = registryOf('help');
    const served = new CommandsCard(baseCard(), registry);
    const first = served.etag;
    registry.register({ name: 'plugin', description: 'from a plugin', run: () => '' });
    const second = served.etag;
    expect(second).not.toBe(first);
    registry.unregister('plugin');
    expect(served.etag).toBe(first);
  });

  it('registering many commands in a row rebuilds the card once, when it is next read', () => {
    // 2,000 command files rebuilt and hashed the card 2,000 times.
    const registry = registryOf('help');
    const served = new CommandsCard(baseCard(), registry);
    const lists = vi.spyOn(registry, 'list');
    for (let i = 0; i < 2000; i++)
      registry.register({ name: `cmd-${i}`, description: `number ${i}`, run: () => '' });
    expect(lists).not.toHaveBeenCalled();
    const listed = commandsEntries(served.current)[0]!.params as { commands: unknown[] };
    expect(listed.commands).toHaveLength(2001);
    void served.json;
    void served.etag;
    expect(lists).toHaveBeenCalledTimes(1);
  });

  it('§1: the etag stays when the card does not change', () => {
    const registry = registryOf('help');
    const served = new CommandsCard(baseCard(), registry);
    const tag = served.etag;
    const card = served.current;
    expect(served.etag).toBe(tag);
    expect(served.current).toBe(card);
    registry.unregister('missing');
    expect(served.etag).toBe(tag);
  });

  it('§1: the same card gives the same etag on another instance', () => {
    const a = new CommandsCard(baseCard(), registryOf('help', 'model'));
    const b = new CommandsCard(baseCard(), registryOf('help', 'model'));
    expect(a.etag).toBe(b.etag);
    expect(a.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
  });

  it('§1: a different description gives a different etag', () => {
    const a = new CommandsCard(baseCard(), registryOf('help'));
    const registry = new CommandRegistry();
    registry.register({ name: 'help', description: 'something else', run: () => '' });
    const b = new CommandsCard(baseCard(), registry);
    expect(a.etag).not.toBe(b.etag);
  });
});

describe('cardToJson', () => {
  const secured: AgentCard = {
    ...baseCard(),
    securitySchemes: {
      bearer: {
        scheme: {
          $case: 'httpAuthSecurityScheme',
          value: { description: 'API key', scheme: 'Bearer', bearerFormat: '' },
        },
      },
    },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
  };

  it('writes security schemes in their wire shape, which the SDK reads back', () => {
    const wire = JSON.parse(cardToJson(secured));
    expect(wire.securitySchemes).toEqual({
      bearer: { httpAuthSecurityScheme: { description: 'API key', scheme: 'Bearer' } },
    });
    expect(wire.securityRequirements).toEqual([{ schemes: { bearer: {} } }]);
    const read = AgentCard.fromJSON(wire);
    expect(read.securitySchemes).toEqual(secured.securitySchemes);
    expect(read.securityRequirements).toEqual(secured.securityRequirements);
  });

  it('leaves every other field as it is', () => {
    const card = withCommandsExtension(baseCard([OTHER]), new CommandRegistry());
    expect(JSON.parse(cardToJson(card))).toEqual(JSON.parse(JSON.stringify(card)));
  });
});
