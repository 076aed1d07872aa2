export {
  HARNESS_METADATA_KEY,
  ANSWER_ARTIFACT_NAME,
  isNote,
  isStoppedAnswer,
  noteKindOf,
  type NoteKind,
} from './harness-marks.js';
export { CARD_REFRESH_MS, reconnectDelayMs } from './agent-link.js';
export { CardWatch, type CardWatchOptions } from './card-watch.js';
export { cardForCaller, offersCallerCard } from './caller-card.js';
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
export {
  ApiKeyRefusedError,
  asksForApiKey,
  requiresApiKey,
  scopedKeyFetch,
  type KeyScope,
} from './api-key-scope.js';
export { keepShownAnswer } from './keep-shown-answer.js';
export { shortTaskId } from './short-id.js';
export { taskTree, type TreeOptions, type TreeTask } from './task-tree.js';
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
export { enterWithList, type EnterOutcome, type OpenList } from './enter-rule.js';
