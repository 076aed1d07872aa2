export { CARD_REFRESH_MS, reconnectDelayMs } from './agent-link.js';
export type {
  AgentEntry,
  AnswerStatus,
  DividerEntry,
  Entry,
  NoteEntry,
  NoteTone,
  ReplyEntry,
  UserEntry,
} from './entries.js';
export { answerStatus } from './entries.js';
export { KEEP_TEXT, type TextFilter } from './text-filter.js';
export { isAgentMessage, isUserMessage, textOf, userCommandOf } from './messages.js';
export {
  TranscriptCore,
  emptyTranscript,
  latestTaskRef,
  type Transcript,
  type TranscriptAction,
  type TranscriptOptions,
} from './transcript.js';
export { shortTaskId } from './short-id.js';
