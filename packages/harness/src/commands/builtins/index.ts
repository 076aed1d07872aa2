import type { CommandRegistry, RegisteredCommand } from 'a2a-commands';
import { clearCommand } from './clear.js';
import { forkCommand } from './fork.js';
import { helpCommand } from './help.js';
import { modelCommand } from './model.js';
import type { BuiltinCommand, CommandServices } from './services.js';
import { spawnCommand } from './spawn.js';
import { statusCommand } from './status.js';
import { stopCommand } from './stop.js';
import { systemCommand } from './system.js';
import { tasksCommand } from './tasks.js';
import { titleCommand } from './title.js';

export type { BuiltinCommand, CommandServices } from './services.js';
export { clearCommand } from './clear.js';
export { forkCommand } from './fork.js';
export { helpCommand } from './help.js';
export { modelCommand, type ModelData } from './model.js';
export { spawnCommand, spawnTitle } from './spawn.js';
export { statusCommand, type StatusData, type SubtaskStatus } from './status.js';
export { stopCommand, type StopData } from './stop.js';
export { systemCommand } from './system.js';
export { tasksCommand, type TaskEntry } from './tasks.js';
export { checkTitle, titleCommand, type TitleCheck } from './title.js';
export { MAX_TITLE_LENGTH } from './format.js';

/** The built-in commands, in the order the card lists them. */
export const builtinCommands: BuiltinCommand[] = [
  helpCommand,
  modelCommand,
  statusCommand,
  systemCommand,
  titleCommand,
  clearCommand,
  forkCommand,
  spawnCommand,
  tasksCommand,
  stopCommand,
];

/** Registers every built-in command, in order; returns what the registry keeps. */
export function registerBuiltins(
  registry: CommandRegistry,
  services: CommandServices,
): RegisteredCommand[] {
  return builtinCommands.map((make) => registry.register(make(services)));
}
