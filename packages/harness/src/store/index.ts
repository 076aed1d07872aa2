export {
  openDatabase,
  databaseUrl,
  kindOf,
  redactUrl,
  sqliteConnectionOf,
  postgresPoolOf,
  POSTGRES_POOL_SIZE,
  type HarnessDatabase,
  type DatabaseKind,
} from './database.js';
export {
  HarnessTaskStore,
  MessageIdTakenError,
  type RemovedTurn,
  type TaskChange,
  type TurnRowWrite,
  type TaskKeys,
} from './harness-task-store.js';
export {
  DATABASE_UNREACHABLE_MESSAGE,
  isDatabaseUnreachable,
  isStorageFull,
  retryWhileUnreachable,
  STORAGE_FULL_MESSAGE,
} from './connection-errors.js';
export type { ReplyNotifier } from './reply-notices.js';
export { ownerContext, taskOwnerResolver, type Owner } from './owner.js';
export { HistoryQuotaError, storedChars } from './history-quota.js';
export { LOCK_CLASS, lockForTransaction, type AnyKysely } from './advisory-locks.js';
export {
  LEASES_TABLE,
  TURNS_TABLE,
  UNCLAIMED_AFTER_MS,
  type ClaimedTurn,
  type TurnRow,
  type TurnRows,
} from './turn-rows.js';
export { PostgresTurnRows } from './postgres/turn-rows.js';
