import { describe, expect, it, vi } from 'vitest';
import type { CommandDefinition } from './command.js';
import { CommandRegistrationError, CommandRegistry } from './registry.js';

const run = () => 'ok';

function define(name: string, extra: Partial<CommandDefinition> = {}): CommandDefinition {
  return { name, description: `the ${name} command`, run, ...extra };
}

describe('CommandRegistry (SEMANTICS §1)', () => {
  it('§1: register then get, has and size', () => {
    const registry = new CommandRegistry();
    const registered = registry.register(define('help', { argument_hint: '[<topic>]' }));
    expect(registry.get('help')).toBe(registered);
    expect(registered).toMatchObject({
      name: 'help',
      description: 'the help command',
      argument_hint: '[<topic>]',
    });
    expect(registry.has('help')).toBe(true);
    expect(registry.has('nope')).toBe(false);
    expect(registry.get('nope')).toBeUndefined();
    expect(registry.size).toBe(1);
  });

  it('§1: argument_hint defaults to ""', () => {
    const registry = new CommandRegistry();
    expect(registry.register(define('help')).argument_hint).toBe('');
    expect(registry.specs()[0]!.argument_hint).toBe('');
  });

  it('§1: list() and specs() keep registration order', () => {
    const registry = new CommandRegistry();
    for (const name of ['zeta', 'alpha', 'mid', 'b2']) registry.register(define(name));
    expect(registry.list().map((c) => c.name)).toEqual(['zeta', 'alpha', 'mid', 'b2']);
    expect(registry.specs().map((c) => c.name)).toEqual(['zeta', 'alpha', 'mid', 'b2']);
  });

  it('§1: a command removed and registered again goes last', () => {
    const registry = new CommandRegistry();
    for (const name of ['a', 'b', 'c']) registry.register(define(name));
    registry.unregister('a');
    registry.register(define('a'));
    expect(registry.specs().map((c) => c.name)).toEqual(['b', 'c', 'a']);
  });

  it('§1: unregister removes a command and reports whether it was there', () => {
    const registry = new CommandRegistry();
    registry.register(define('help'));
    registry.register(define('model'));
    expect(registry.unregister('help')).toBe(true);
    expect(registry.unregister('help')).toBe(false);
    expect(registry.get('help')).toBeUndefined();
    expect(registry.specs().map((c) => c.name)).toEqual(['model']);
    expect(registry.size).toBe(1);
  });

  it('§1: specs() has exactly name, description, argument_hint, in that order', () => {
    const registry = new CommandRegistry();
    registry.register({
      run,
      argument_hint: '<x>',
      description: 'd',
      name: 'cmd',
      // Anything else on the definition must not reach the card.
      ...({ hidden: true, aliases: ['c'] } as object),
    });
    registry.register(define('plain'));
    for (const spec of registry.specs()) {
      expect(Object.keys(spec)).toEqual(['name', 'description', 'argument_hint']);
    }
    expect(registry.specs()[0]).toEqual({ name: 'cmd', description: 'd', argument_hint: '<x>' });
  });

  it('§1: specs() is cached until the registry changes', () => {
    const registry = new CommandRegistry();
    registry.register(define('a'));
    const first = registry.specs();
    expect(registry.specs()).toBe(first);
    registry.register(define('b'));
    const second = registry.specs();
    expect(second).not.toBe(first);
    expect(second.map((c) => c.name)).toEqual(['a', 'b']);
    registry.unregister('a');
    expect(registry.specs().map((c) => c.name)).toEqual(['b']);
  });

  it('§1: onChange fires on register and on unregister', () => {
    const registry = new CommandRegistry();
    const listener = vi.fn();
    registry.onChange(listener);
    registry.register(define('a'));
    expect(listener).toHaveBeenCalledTimes(1);
    registry.register(define('b'));
    expect(listener).toHaveBeenCalledTimes(2);
    registry.unregister('a');
    expect(listener).toHaveBeenCalledTimes(3);
  });

  it('§1: onChange sees the new state when it fires', () => {
    const registry = new CommandRegistry();
    const seen: string[][] = [];
    registry.onChange(() => seen.push(registry.specs().map((c) => c.name)));
    registry.register(define('a'));
    registry.register(define('b'));
    registry.unregister('a');
    expect(seen).toEqual([['a'], ['a', 'b'], ['b']]);
  });

  it('§1: onChange does not fire for a no-op unregister or a failed register', () => {
    const registry = new CommandRegistry();
    registry.register(define('a'));
    const listener = vi.fn();
    registry.onChange(listener);
    registry.unregister('missing');
    expect(() => registry.register(define('a'))).toThrow();
    expect(() => registry.register(define('Bad'))).toThrow();
    expect(listener).not.toHaveBeenCalled();
  });

  it('§1: the function onChange returns unsubscribes', () => {
    const registry = new CommandRegistry();
    const kept = vi.fn();
    const dropped = vi.fn();
    registry.onChange(kept);
    const unsubscribe = registry.onChange(dropped);
    registry.register(define('a'));
    unsubscribe();
    registry.register(define('b'));
    registry.unregister('a');
    expect(dropped).toHaveBeenCalledTimes(1);
    expect(kept).toHaveBeenCalledTimes(3);
  });

  it.each(['Help', '1x', '-x', 'a b', '', 'héllo', 'help\n', '/help', 'a_b', 'a.b'])(
    '§1: the bad name %j throws, naming it',
    (name) => {
      const registry = new CommandRegistry();
      let error: unknown;
      try {
        registry.register(define(name));
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(CommandRegistrationError);
      expect((error as Error).message).toContain(JSON.stringify(name));
      expect(registry.size).toBe(0);
    },
  );

  it('§1: names that match [a-z][a-z0-9-]* are accepted', () => {
    const registry = new CommandRegistry();
    for (const name of ['a', 'x9', 'a-b', 'a--b-', 'model-2-pro']) registry.register(define(name));
    expect(registry.size).toBe(5);
  });

  it('§1: a non-string name throws', () => {
    const registry = new CommandRegistry();
    expect(() => registry.register(define(42 as unknown as string))).toThrow(
      CommandRegistrationError,
    );
  });

  it('§1: a duplicate name throws, naming it, and keeps the first command', () => {
    const registry = new CommandRegistry();
    const first = registry.register(define('help', { description: 'first' }));
    expect(() => registry.register(define('help', { description: 'second' }))).toThrow(
      CommandRegistrationError,
    );
    expect(() => registry.register(define('help'))).toThrow(/\/help/);
    expect(registry.get('help')).toBe(first);
    expect(registry.size).toBe(1);
  });

  it.each(['', '   ', '\n\t'])('§1: the empty description %j throws, naming the command', (d) => {
    const registry = new CommandRegistry();
    expect(() => registry.register(define('help', { description: d }))).toThrow(
      /help.*description/,
    );
    expect(registry.size).toBe(0);
  });

  it('§1: a non-string argument_hint throws', () => {
    const registry = new CommandRegistry();
    expect(() =>
      registry.register(define('help', { argument_hint: 3 as unknown as string })),
    ).toThrow(CommandRegistrationError);
  });

  it('§1: a missing run function throws', () => {
    const registry = new CommandRegistry();
    expect(() =>
      registry.register({ name: 'help', description: 'd' } as unknown as CommandDefinition),
    ).toThrow(CommandRegistrationError);
  });

  it('§1: CommandRegistrationError is an Error with its own name', () => {
    const error = new CommandRegistrationError('x');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('CommandRegistrationError');
  });
});

describe('CommandRegistry.forCaller (SEMANTICS §9)', () => {
  const alice = { name: 'alice', authenticated: true };
  const bob = { name: 'bob', authenticated: true };

  function registryWithRules(): CommandRegistry {
    const registry = new CommandRegistry();
    registry.register(define('help'));
    registry.register(define('reload', { allowed: (caller) => caller.name === 'alice' }));
    registry.register(define('deploy', { allowed: (caller) => caller.name === 'bob' }));
    return registry;
  }

  it('answers which commands each caller may run, in registration order', () => {
    const registry = registryWithRules();
    expect(
      registry
        .forCaller(alice)
        .specs()
        .map((c) => c.name),
    ).toEqual(['help', 'reload']);
    expect(
      registry
        .forCaller(bob)
        .specs()
        .map((c) => c.name),
    ).toEqual(['help', 'deploy']);
    expect(registry.forCaller(alice).get('deploy')).toBeUndefined();
    expect(registry.forCaller(bob).has('deploy')).toBe(true);
    expect(registry.hasRestricted).toBe(true);
  });

  it('without a caller: only the commands everyone may run (the public card)', () => {
    const registry = registryWithRules();
    expect(
      registry
        .forCaller()
        .specs()
        .map((c) => c.name),
    ).toEqual(['help']);
    expect(registry.forCaller().get('reload')).toBeUndefined();
    // The whole registry still knows them all.
    expect(registry.specs().map((c) => c.name)).toEqual(['help', 'reload', 'deploy']);
  });

  it('a rule that throws keeps the command closed', () => {
    const registry = new CommandRegistry();
    registry.register(
      define('odd', {
        allowed: () => {
          throw new Error('broken rule');
        },
      }),
    );
    expect(registry.forCaller(alice).get('odd')).toBeUndefined();
  });

  it('an allowed rule that is not a function is refused', () => {
    const registry = new CommandRegistry();
    expect(() =>
      registry.register(define('x', { allowed: 'alice' as unknown as () => boolean })),
    ).toThrow(/allowed must be a function/);
  });

  it('follows registrations: unregistering the last rule makes every view the public one', () => {
    const registry = registryWithRules();
    registry.unregister('reload');
    registry.unregister('deploy');
    expect(registry.hasRestricted).toBe(false);
    expect(registry.forCaller(alice)).toBe(registry.forCaller());
  });
});
