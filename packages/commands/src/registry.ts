import { CallerCommands, specOf, type CommandView } from './caller-commands.js';
import type { Caller, CommandArgument, CommandDefinition, RegisteredCommand } from './command.js';
import { COMMAND_NAME_PATTERN, type CommandSpec } from './spec.js';

export type RegistryListener = () => void;

/** Thrown when a command definition breaks SEMANTICS §1. */
export class CommandRegistrationError extends Error {
  override name = 'CommandRegistrationError';
}

/**
 * The commands an agent offers, in registration order (SEMANTICS §1).
 * It knows nothing about what any single command does.
 */
export class CommandRegistry {
  private readonly commands = new Map<string, RegisteredCommand>();
  private readonly listeners = new Set<RegistryListener>();
  private specsCache: CommandSpec[] | undefined;
  private restricted = 0;
  private everyoneSpecs: readonly CommandSpec[] | undefined;
  /** The public card's commands: those without an `allowed` rule. */
  private readonly everyone: CommandView = {
    get: (name) => {
      const command = this.commands.get(name);
      return command && !command.allowed ? command : undefined;
    },
    has: (name) => this.everyone.get(name) !== undefined,
    list: () => this.list().filter((command) => !command.allowed),
    specs: () => (this.everyoneSpecs ??= this.everyone.list().map(specOf)),
  };

  register(definition: CommandDefinition): RegisteredCommand {
    const command = validate(definition);
    if (this.commands.has(command.name)) {
      throw new CommandRegistrationError(`command "/${command.name}" is already registered`);
    }
    this.commands.set(command.name, command);
    if (command.allowed) this.restricted++;
    this.changed();
    return command;
  }

  /** Removes a command; returns whether it was registered. */
  unregister(name: string): boolean {
    const command = this.commands.get(name);
    if (!command) return false;
    this.commands.delete(name);
    if (command.allowed) this.restricted--;
    this.changed();
    return true;
  }

  /**
   * SEMANTICS §9: the commands `caller` may run, which is all a caller may
   * know of. Without a caller, the commands everyone may run: the public
   * card's. While no command has an `allowed` rule, every caller gets that
   * same view, at no cost.
   */
  forCaller(caller?: Caller): CommandView {
    if (caller === undefined || this.restricted === 0) return this.everyone;
    return new CallerCommands(this, caller);
  }

  /** Whether some command is for some callers only (it has an `allowed` rule). */
  get hasRestricted(): boolean {
    return this.restricted > 0;
  }

  get(name: string): RegisteredCommand | undefined {
    return this.commands.get(name);
  }

  has(name: string): boolean {
    return this.commands.has(name);
  }

  get size(): number {
    return this.commands.size;
  }

  /** Every command, whoever may run it, in registration order: what a caller sees is `forCaller`. */
  list(): RegisteredCommand[] {
    return [...this.commands.values()];
  }

  /**
   * Every command as `name`, `description` and `argument_hint`, cached until a
   * change. What a card lists is `forCaller(...).specs()`.
   */
  specs(): readonly CommandSpec[] {
    this.specsCache ??= this.list().map(specOf);
    return this.specsCache;
  }

  /** Calls `listener` after every register or unregister; returns a function that stops it. */
  onChange(listener: RegistryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    this.specsCache = undefined;
    this.everyoneSpecs = undefined;
    for (const listener of this.listeners) listener();
  }
}

function validate(definition: CommandDefinition): RegisteredCommand {
  const { name, description, argument_hint = '', run, arguments: args, allowed } = definition;
  if (typeof name !== 'string' || !COMMAND_NAME_PATTERN.test(name)) {
    throw new CommandRegistrationError(
      `invalid command name ${JSON.stringify(name)}: it must match [a-z][a-z0-9-]*`,
    );
  }
  if (typeof description !== 'string' || description.trim() === '') {
    throw new CommandRegistrationError(`command "/${name}" needs a non-empty description`);
  }
  if (typeof argument_hint !== 'string') {
    throw new CommandRegistrationError(`command "/${name}": argument_hint must be a string`);
  }
  if (typeof run !== 'function') {
    throw new CommandRegistrationError(`command "/${name}" needs a run function`);
  }
  if (allowed !== undefined && typeof allowed !== 'function') {
    throw new CommandRegistrationError(`command "/${name}": allowed must be a function`);
  }
  if (args !== undefined) validateArguments(name, args);
  return {
    name,
    description,
    argument_hint,
    run,
    ...(args !== undefined && { arguments: args }),
    ...(allowed !== undefined && { allowed }),
  };
}

function validateArguments(command: string, args: unknown): void {
  if (!Array.isArray(args)) {
    throw new CommandRegistrationError(`command "/${command}": arguments must be an array`);
  }
  for (const [index, argument] of (args as CommandArgument[]).entries()) {
    const where = `command "/${command}", argument ${index}`;
    if (typeof argument?.name !== 'string' || argument.name === '') {
      throw new CommandRegistrationError(`${where} needs a non-empty name`);
    }
    if (argument.complete !== undefined && typeof argument.complete !== 'function') {
      throw new CommandRegistrationError(`${where}: complete must be a function`);
    }
    for (const choice of argument.choices ?? []) {
      if (typeof choice?.value !== 'string' || choice.value === '') {
        throw new CommandRegistrationError(`${where}: every choice needs a non-empty value`);
      }
    }
  }
}
