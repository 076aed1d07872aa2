/**
 * `a2a-commands/server/internal`: the parts the command server is built from,
 * for an agent that builds on them (the harness does) rather than on
 * `createCommandsServer`. Not part of the public API: they may change in any
 * release.
 */
export { withoutReplyTags } from './command-task-store.js';
export { LiveStreams, taskIdOfEvent } from './live-streams.js';
export { CommandRunner, type CommandOutcome, type CommandRunnerOptions } from './run-command.js';
export { replyMessage, replyMetadata, commandReplyEvent } from './reply.js';
export { KeyedLock } from './keyed-lock.js';
