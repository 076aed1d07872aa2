import clear from './clear.schema.json' with { type: 'json' };
import fork from './fork.schema.json' with { type: 'json' };
import help from './help.schema.json' with { type: 'json' };
import model from './model.schema.json' with { type: 'json' };
import spawn from './spawn.schema.json' with { type: 'json' };
import status from './status.schema.json' with { type: 'json' };
import stop from './stop.schema.json' with { type: 'json' };
import system from './system.schema.json' with { type: 'json' };
import tasks from './tasks.schema.json' with { type: 'json' };
import title from './title.schema.json' with { type: 'json' };

type Schema = Readonly<Record<string, unknown>>;

/**
 * The JSON Schema of the data part of each built-in command's reply (/help,
 * /model, ...), by command name. Each also accepts the library's shared
 * refusal, `commandRefusalSchema` from a2a-commands.
 */
export const builtinReplySchemas: Readonly<Record<string, Schema>> = {
  help,
  model,
  status,
  system,
  title,
  clear,
  fork,
  spawn,
  tasks,
  stop,
};
