/**
 * A new task or context id: a UUIDv7 (RFC 9562), whose first 48 bits are the
 * time in milliseconds, so ids sort by creation time. Every index keyed by
 * task id (the task's primary key, the history's keys) then grows at its end:
 * writes that commit together share pages, and the pages being written stay
 * in the cache, where random ids scatter each task over leaf pages of its own.
 *
 * Its random bits come from `crypto.randomUUID`, which draws on a pooled
 * buffer; a fresh `getRandomValues` per id cost more than the insert saved.
 */
export function newTaskId(): string {
  const time = Date.now().toString(16).padStart(12, '0');
  // randomUUID is xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx: keep from after its version digit.
  return `${time.slice(0, 8)}-${time.slice(8)}-7${crypto.randomUUID().slice(15)}`;
}
