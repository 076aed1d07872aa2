/**
 * A task id short enough to show: its last 8 hex digits. Task ids are UUIDv7,
 * whose first digits are a timestamp shared by tasks made together (a task and
 * its sub-task); the last digits are random, so they tell tasks apart.
 */
export function shortTaskId(id: string): string {
  return id.replaceAll('-', '').slice(-8);
}
