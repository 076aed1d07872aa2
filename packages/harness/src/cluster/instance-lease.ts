import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import { isDatabaseUnreachable, type AnyKysely } from '../store/index.js';
import { listenApplicationName, poolApplicationName } from './connection-names.js';
import { LEASES_TABLE, type ClusterTables } from './tables.js';

/**
 * How long an instance's lease lasts when it is not renewed. Chosen to ride
 * out what is not a death: a PostgreSQL restart (1 to 3 s here), a LISTEN
 * connection reconnecting (its backoff reaches 5 s), a long garbage
 * collection. It is renewed every third of that, so two renewals in a row
 * may fail before it lapses. A dead instance's turns end this long after its
 * last renewal, plus at most one sweep.
 */
export const DEFAULT_LEASE_MS = 10_000;

/** An interval PostgreSQL adds to `now()`. */
const interval = (ms: number) => sql`make_interval(secs => ${ms / 1000})`;

/**
 * This instance's lease: a row in `a2a_harness_instances` that it renews
 * every `leaseMs / 3` from its pool, judged by the database's clock. Another
 * instance takes its turns over only once the row has expired, and deletes
 * the row as it does: a renewal that then finds no row tells this instance
 * that it was fenced out.
 */
export class InstanceLease {
  private readonly db: Kysely<ClusterTables>;
  private timer: NodeJS.Timeout | undefined;
  private renewing = false;
  private fenced = false;

  constructor(
    db: AnyKysely,
    readonly instanceId: string,
    readonly leaseMs: number,
    private readonly logger: Logger,
    /** Its name, unique among running instances; none for an instance that gave none. */
    readonly name: string | null = null,
  ) {
    this.db = db as Kysely<ClusterTables>;
  }

  /** Takes the lease (again, after being fenced out). */
  async take(): Promise<void> {
    await this.db
      .insertInto(LEASES_TABLE)
      .values({
        instance: this.instanceId,
        expires_at: sql`now() + ${interval(this.leaseMs)}`,
        name: this.name,
      })
      .onConflict((conflict) =>
        conflict
          .column('instance')
          .doUpdateSet({ expires_at: sql`now() + ${interval(this.leaseMs)}` }),
      )
      .execute();
    this.fenced = false;
  }

  /** Whether this instance holds its lease, as far as its last renewal knows. */
  get held(): boolean {
    return !this.fenced;
  }

  /** Renews every third of the lease; `onFenced` hears once that the row was taken. */
  startRenewing(onFenced: () => void): void {
    this.timer = setInterval(() => {
      if (this.renewing || this.fenced) return;
      this.renewing = true;
      this.renew()
        .then((held) => {
          if (held) return;
          this.fenced = true;
          this.logger.error(
            { instance: this.instanceId },
            'cluster: this instance missed its lease and its turns were taken over; ending them here',
          );
          onFenced();
        })
        .catch((error: unknown) => {
          // An outage: the lease holds for a while yet, and the next renewal tries again.
          if (!isDatabaseUnreachable(error))
            this.logger.error({ err: error }, 'cluster: renewing the lease failed');
        })
        .finally(() => (this.renewing = false));
    }, this.leaseMs / 3);
    this.timer.unref();
  }

  /** Shutdown: the lease goes, so nobody waits for it to expire. */
  async release(): Promise<void> {
    clearInterval(this.timer);
    await this.db
      .deleteFrom(LEASES_TABLE)
      .where('instance', '=', this.instanceId)
      .execute()
      .catch(() => undefined);
  }

  private async renew(): Promise<boolean> {
    const renewed = await this.db
      .updateTable(LEASES_TABLE)
      .set({ expires_at: sql`now() + ${interval(this.leaseMs)}` })
      .where('instance', '=', this.instanceId)
      .returning('instance')
      .execute();
    return renewed.length > 0;
  }
}

/**
 * Ends `instance`'s lease if it has still expired: true when its turns are
 * now for the others to end. A renewal that came meanwhile wins (the row is
 * locked by whichever statement comes first), and then this is false.
 */
export async function takeOverLease(db: AnyKysely, instance: string): Promise<boolean> {
  const trx = db as Kysely<ClusterTables>;
  const deleted = await trx
    .deleteFrom(LEASES_TABLE)
    .where('instance', '=', instance)
    .where('expires_at', '<', sql<Date>`now()`)
    .returning('instance')
    .execute();
  if (deleted.length > 0) return true;
  const alive = await trx
    .selectFrom(LEASES_TABLE)
    .select('instance')
    .where('instance', '=', instance)
    .executeTakeFirst();
  return alive === undefined;
}

/**
 * Earlier runs under `name` that are gone: a crash and a restart come
 * quicker than a lease expires. Two running instances never share a name,
 * so another run under it has ended, or is a configuration error. As a
 * guard against the latter, a run counts as gone only while no connection
 * of its own is open to the database: a live instance keeps its LISTEN
 * connection, and a killed one's close with its process.
 */
export async function previousRuns(db: AnyKysely, name: string, me: string): Promise<string[]> {
  const runs = await (db as Kysely<ClusterTables>)
    .selectFrom(LEASES_TABLE)
    .select('instance')
    .where('name', '=', name)
    .where('instance', '<>', me)
    .execute();
  const gone: string[] = [];
  for (const { instance } of runs) {
    const { rows } = await sql`
      select 1 from pg_stat_activity
      where application_name in (${poolApplicationName(instance)}, ${listenApplicationName(instance)})`.execute(
      db,
    );
    if (rows.length === 0) gone.push(instance);
  }
  return gone;
}

/** Ends a gone run's lease whether or not it expired, once its turns have ended. */
export async function endLeaseOfGoneRun(db: AnyKysely, instance: string): Promise<void> {
  await (db as Kysely<ClusterTables>)
    .deleteFrom(LEASES_TABLE)
    .where('instance', '=', instance)
    .execute();
}
