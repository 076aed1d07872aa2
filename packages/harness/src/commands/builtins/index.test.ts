import { CommandRegistry } from 'a2a-commands';
import { describe, expect, it } from 'vitest';
import { builtinCommands, registerBuiltins } from './index.js';
import { fakeServices } from './test-context.js';

const ORDER = [
  'help',
  'model',
  'status',
  'system',
  'title',
  'clear',
  'fork',
  'spawn',
  'tasks',
  'stop',
];

describe('built-in commands', () => {
  it('register in card order, each with a description and a hint', () => {
    const services = fakeServices({ register: false });
    const registered = registerBuiltins(services.registry, services);
    expect(registered.map((c) => c.name)).toEqual(ORDER);
    expect(services.registry.specs().map((s) => s.name)).toEqual(ORDER);
    expect(builtinCommands).toHaveLength(ORDER.length);
    const hints = Object.fromEntries(
      services.registry.specs().map((s) => [s.name, s.argument_hint]),
    );
    expect(hints).toEqual({
      help: '[<command>]',
      model: '[<model>]',
      status: '',
      system: '[<prompt> | --clear]',
      title: '[<title>]',
      clear: '',
      fork: '[<title>]',
      spawn: '<prompt>',
      tasks: '',
      stop: '',
    });
    for (const spec of services.registry.specs()) expect(spec.description).not.toBe('');
  });

  it('refuses to register twice', () => {
    const services = fakeServices();
    expect(() => registerBuiltins(services.registry, services)).toThrow(/help/);
    expect(new CommandRegistry().size).toBe(0);
  });
});
