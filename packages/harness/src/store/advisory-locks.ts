import { sql, type Kysely } from 'kysely';

/**
 * A database whose tables do not matter here. Kysely's schema parameter is
 * invariant, so only `any` says "any tables".
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyKysely = Kysely<any>;

/**
 * PostgreSQL advisory locks, in their two-key form: the first key names what
 * is locked (a class of its own, so that other users of the database do not
 * collide with the harness), the second is a hash of the id.
 */
export const LOCK_CLASS = {
  /** One task's writes: held for one transaction. */
  task: 0x41324101,
  /** A running instance: held by its listening connection for as long as it lives. */
  instance: 0x41324102,
  /** Creating the harness's tables, when several instances start at once. */
  schema: 0x41324103,
  /** One owner's new sub-tasks and forks, checked against the history quota: one transaction. */
  owner: 0x41324104,
} as const;

/** Waits for the lock and holds it until the transaction `db` belongs to ends. */
export async function lockForTransaction(
  db: AnyKysely,
  lockClass: number,
  id: string,
): Promise<void> {
  await sql`select pg_advisory_xact_lock(${sql.lit(lockClass)}, hashtext(${id}))`.execute(db);
}
