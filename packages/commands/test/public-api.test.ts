/**
 * Each entry point's public API is a promise to adopters, so it is pinned
 * here name by name: a generic library exports neither one agent's conventions
 * (the harness's metadata key, its answer artifact, its notes, its built-in
 * commands' reply schemas) nor the server's internals (locks, the command
 * runner, the stream fan-out), which live behind `a2a-commands/server/internal`.
 */
import { describe, expect, it } from 'vitest';

const exportsOf = async (specifier: string) =>
  Object.keys((await import(specifier)) as Record<string, unknown>).sort();

const HARNESS_CONVENTIONS = [
  'ANSWER_ARTIFACT_NAME',
  'HARNESS_METADATA_KEY',
  'builtinReplySchemas',
  'isNote',
  'isStoppedAnswer',
  'noteKindOf',
];

const SERVER_INTERNALS = [
  'CommandRunner',
  'KeyedLock',
  'LiveStreams',
  'commandReplyEvent',
  'replyMessage',
  'replyMetadata',
  'taskIdOfEvent',
  'withoutReplyTags',
];

describe('the public API of each entry point', () => {
  it('a2a-commands and a2a-commands/client carry none of the harness conventions', async () => {
    for (const specifier of ['a2a-commands', 'a2a-commands/client']) {
      const names = await exportsOf(specifier);
      expect(names.filter((name) => HARNESS_CONVENTIONS.includes(name))).toEqual([]);
    }
  });

  it('a2a-commands/client is the client API, name by name', async () => {
    expect(await exportsOf('a2a-commands/client')).toEqual([
      'COMMANDS_EXTENSION_URI',
      'COMMAND_NAME_PATTERN',
      'FUZZY_MIN_QUERY',
      'REPLY_ERROR_CODES',
      'RUNNING_STATES',
      'SUBTASK_METADATA_KEY',
      'TERMINAL_STATES',
      'argumentHintState',
      'commandOf',
      'commandRequestOptions',
      'complete',
      'hasCommandsExtension',
      'hintRequiresArguments',
      'isCommandReply',
      'isReplyError',
      'isRunningState',
      'isTerminalState',
      'parseCommandText',
      'readCommands',
      'refreshCard',
      'replyData',
      'replyErrorOf',
      'replyMessageOf',
      'replyMetadataOf',
      'replyText',
      'sendText',
      'streamText',
      'taskRefOf',
      'textMessage',
      'textRequest',
    ]);
  });

  it('a2a-commands/server is the server API, without its internals', async () => {
    expect(await exportsOf('a2a-commands/server')).toEqual([
      'ArgumentCompletions',
      'CommandsRequestHandler',
      'CommandsTaskStore',
      'CompletionRefusal',
      'TurnGate',
      'TurnQueueFullError',
      'commandsContextBuilder',
      'createCommandsServer',
      'matchValues',
    ]);
  });

  it('a2a-commands/server/internal holds the internals the harness builds on', async () => {
    expect(await exportsOf('a2a-commands/server/internal')).toEqual(SERVER_INTERNALS);
  });
});
