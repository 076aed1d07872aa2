// The terminal chat for any A2A agent: its CLI commands, for a program that embeds them
// (`a2a-harness chat` and `send`), and the connection and `send` result they use.
// React and ink load only when `chat` runs (see ./ui for the interactive parts).
export { chatCommand, type CliNames } from './cli/chat-command.js';
export { REFUSED_EXIT_CODE, sendCommand } from './cli/send-command.js';
export { ChatError, connect, DEFAULT_AGENT_URL, loadTask, type Connection } from './connection.js';
export { sendOutcome, sendResultJson, type SendOutcome } from './send-result.js';
export { escapeJson, sanitizeChunk, sanitizeLine, sanitizeText } from './sanitize.js';
