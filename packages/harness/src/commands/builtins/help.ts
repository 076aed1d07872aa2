import type { CommandResult, CommandSpec, RegisteredCommand } from 'a2a-commands';
import { closeMatches } from '../../models/suggest.js';
import { oneLine, quote, requiresArgument, specOf, truncate } from './format.js';
import type { BuiltinCommand } from './services.js';

/** How many close names an unknown name gets. */
const SUGGESTIONS = 3;

/**
 * `/help [<command>]`: every registered command (built-in or custom, in the
 * registry's order) with its hint and description, or one command in detail.
 */
export const helpCommand: BuiltinCommand = (services) => ({
  name: 'help',
  description: 'List the commands, or explain one',
  argument_hint: '[<command>]',
  // Completion: the registered names, read when asked, so custom commands show at once.
  arguments: [
    {
      name: 'command',
      complete: ({ caller }) =>
        services.registry
          .forCaller(caller)
          .list()
          .map(({ name, description }) => ({ value: name, description })),
    },
  ],
  run: ({ args, caller }): CommandResult => {
    // SEMANTICS §9: the caller's own commands; the others do not exist for them.
    const registry = services.registry.forCaller(caller);
    const wanted = args.trim().replace(/^\//, '');
    if (wanted === '') return overviewOf(registry.specs());
    const commands = registry.list();

    const command = registry.get(wanted);
    if (command) return detail(command);

    const suggestions = similarNames(
      wanted,
      commands.map((c) => c.name),
    );
    const hint =
      suggestions.length > 0
        ? ` Did you mean ${suggestions.map((name) => `/${name}`).join(', ')}?`
        : '';
    return {
      text: `There is no command ${quote(args.trim())}.${hint} Type /help to list every command.`,
      data: { error: 'unknown_command', command: wanted, suggestions },
    };
  },
});

function usage(command: CommandSpec): string {
  return command.argument_hint ? `/${command.name} ${command.argument_hint}` : `/${command.name}`;
}

/**
 * How many commands the overview's text names, and how much of each
 * description it shows: with 2,000 command files the full text was 5.5 MB,
 * stored in history on every /help. The data part keeps the full list.
 */
export const OVERVIEW_MAX_COMMANDS = 100;
export const OVERVIEW_DESCRIPTION_CHARS = 120;

/** The overview's text, made once for each list of commands the registry hands out. */
const overviewTexts = new WeakMap<readonly CommandSpec[], string>();

function overviewOf(specs: readonly CommandSpec[]): CommandResult {
  let text = overviewTexts.get(specs);
  if (text === undefined) {
    text = overviewText(specs);
    overviewTexts.set(specs, text);
  }
  return { text, data: { commands: specs.map(specOf) } };
}

function overviewText(specs: readonly CommandSpec[]): string {
  if (specs.length === 0) return 'No commands are registered.';
  const shown = specs.slice(0, OVERVIEW_MAX_COMMANDS);
  const width = Math.min(60, Math.max(...shown.map((spec) => usage(spec).length)));
  const lines = shown.map(
    (spec) =>
      `${truncate(usage(spec), 60).padEnd(width)}  ${truncate(oneLine(spec.description), OVERVIEW_DESCRIPTION_CHARS)}`,
  );
  const rest = specs.length - shown.length;
  const more = rest > 0 ? [`... and ${rest} more: the reply's data part lists every command.`] : [];
  return ['Commands:', ...lines, ...more, '', 'Type /help <command> for one in detail.'].join('\n');
}

function detail(command: RegisteredCommand): CommandResult {
  const spec = specOf(command);
  const hint = spec.argument_hint;
  let argumentLine: string;
  if (hint === '') argumentLine = 'It takes no arguments.';
  else if (requiresArgument(hint)) argumentLine = `An argument is required: ${hint}.`;
  else argumentLine = `The argument is optional: ${hint}.`;
  return {
    text: [usage(spec), spec.description, argumentLine].join('\n'),
    data: { commands: [spec] },
  };
}

/** Names that start with what was typed first, then names within a small edit distance. */
function similarNames(typed: string, names: string[]): string[] {
  const lower = typed.toLowerCase();
  const prefixed = names.filter((name) => name.startsWith(lower));
  const close = closeMatches(lower, names, SUGGESTIONS);
  return [...new Set([...prefixed, ...close])].slice(0, SUGGESTIONS);
}
