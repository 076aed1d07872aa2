import type { CommandDefinition, CommandRegistry } from 'a2a-commands';
import type { ModelCatalog } from '../../models/index.js';
import type { HarnessTaskStore } from '../../store/index.js';

/** What built-in commands may use of the harness. */
export interface CommandServices {
  catalog: ModelCatalog;
  registry: CommandRegistry;
  store: HarnessTaskStore;
  /** The per-task turns; they may live in the database, shared by several processes. */
  turns: {
    queued(taskId: string): Promise<number>;
    busy(taskId: string): Promise<boolean>;
    /** Stops the running turn, keeping its answer so far; false when none runs. */
    stop(taskId: string): Promise<boolean>;
  };
}

/** A built-in command, made from the services it needs. */
export type BuiltinCommand = (services: CommandServices) => CommandDefinition;
