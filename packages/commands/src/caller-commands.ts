import type { Caller, RegisteredCommand } from './command.js';
import type { CommandSpec } from './spec.js';

/** The commands one caller may run, as a registry answers for them (SEMANTICS §9). */
export interface CommandView {
  /** The command, when this caller may run it; undefined otherwise, as if it were not registered. */
  get(name: string): RegisteredCommand | undefined;
  has(name: string): boolean;
  /** The caller's commands, in registration order. */
  list(): RegisteredCommand[];
  /** The card's view of them: `name`, `description` and `argument_hint`. */
  specs(): readonly CommandSpec[];
}

/** Whether `caller` may run `command`. A check that throws says no: a rule that fails keeps the command closed. */
export function mayRun(command: RegisteredCommand, caller: Caller | undefined): boolean {
  if (!command.allowed) return true;
  if (!caller) return false;
  try {
    return command.allowed(caller) === true;
  } catch {
    return false;
  }
}

export function specOf({ name, description, argument_hint }: RegisteredCommand): CommandSpec {
  return { name, description, argument_hint };
}

/** A caller's view over a registry's commands; it reads them live, so a view may be kept. */
export class CallerCommands implements CommandView {
  constructor(
    private readonly all: {
      get(name: string): RegisteredCommand | undefined;
      list(): RegisteredCommand[];
    },
    /** Undefined: the commands everyone may run (the public card's). */
    private readonly caller: Caller | undefined,
  ) {}

  get(name: string): RegisteredCommand | undefined {
    const command = this.all.get(name);
    return command && mayRun(command, this.caller) ? command : undefined;
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  list(): RegisteredCommand[] {
    return this.all.list().filter((command) => mayRun(command, this.caller));
  }

  specs(): readonly CommandSpec[] {
    return this.list().map(specOf);
  }
}

/** The caller as the SDK's user builder gave them; an anonymous caller without one. */
export function callerOf(context: {
  user?: { userName: string; isAuthenticated: boolean };
}): Caller {
  const user = context.user;
  return { name: user?.userName ?? '', authenticated: user?.isAuthenticated ?? false };
}
