export {
  openDatabase,
  databaseUrl,
  kindOf,
  redactUrl,
  type HarnessDatabase,
  type DatabaseKind,
} from './database.js';
export { HarnessTaskStore, type TaskChange } from './harness-task-store.js';
