/**
 * A task id cut short for people to read, the same in every chat. The tail,
 * not the head: UUIDv7 ids begin with a timestamp, so a task and the sub-task
 * it started a moment later share their first characters; the end is random.
 */

/** How many characters a short id keeps. */
const SHORT_ID_LENGTH = 8;

/**
 * The last 8 hex characters of a UUID (its dashes skipped); for an id of
 * another form, its last 8 characters.
 */
export function shortTaskId(id: string): string {
  const hex = /^[0-9a-f-]+$/i.test(id) ? id.replace(/-/g, '') : id;
  return hex.slice(-SHORT_ID_LENGTH);
}
