import { sql, type Kysely } from 'kysely';
import { LOCK_CLASS, lockForTransaction, type AnyKysely } from '../advisory-locks.js';
import type { Owner } from '../owner.js';
import {
  LEASES_TABLE,
  TURNS_TABLE,
  UNCLAIMED_AFTER_MS,
  type ClaimedTurn,
  type TurnRow,
  type TurnRows,
} from '../turn-rows.js';
import { claimTurn } from './turn-functions.js';

interface Tables {
  [TURNS_TABLE]: Omit<TurnRow, 'id' | 'created_at'> & { id?: string; created_at?: Date };
  [LEASES_TABLE]: { instance: string; expires_at: Date; name: string | null };
}

const typed = (db: AnyKysely) => db as Kysely<Tables>;

/** `TurnRows` on PostgreSQL (the tables: `cluster/tables.ts`). */
export class PostgresTurnRows implements TurnRows {
  private readonly db: Kysely<Tables>;

  constructor(db: AnyKysely) {
    this.db = typed(db);
  }

  async running(taskId: string): Promise<ClaimedTurn | undefined> {
    const row = await this.db
      .selectFrom(TURNS_TABLE)
      .select(['turn_id', 'instance'])
      .where('task_id', '=', taskId)
      .where('instance', 'is not', null)
      .executeTakeFirst();
    return row && { taskId, turnId: row.turn_id, instance: row.instance! };
  }

  async waiting(taskId?: string): Promise<number> {
    let query = this.db
      .selectFrom(TURNS_TABLE)
      .select(sql<string>`count(*)`.as('count'))
      .where('instance', 'is', null);
    if (taskId !== undefined) query = query.where('task_id', '=', taskId);
    return Number((await query.executeTakeFirstOrThrow()).count);
  }

  claim(taskId: string, instance: string): Promise<TurnRow | undefined> {
    return claimTurn(this.db, taskId, instance);
  }

  async claimedBy(id: string, instance: string): Promise<boolean> {
    const row = await this.db
      .selectFrom(TURNS_TABLE)
      .select('id')
      .where('id', '=', id)
      .where('instance', '=', instance)
      .executeTakeFirst();
    return row !== undefined;
  }

  async remove(id: string): Promise<void> {
    await this.db.deleteFrom(TURNS_TABLE).where('id', '=', id).execute();
  }

  removeClaimed(taskId: string, turnId: string, instance: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await lockForTransaction(trx, LOCK_CLASS.task, taskId);
      const deleted = await trx
        .deleteFrom(TURNS_TABLE)
        .where('task_id', '=', taskId)
        .where('turn_id', '=', turnId)
        .where('instance', '=', instance)
        .returning('id')
        .execute();
      return deleted.length > 0;
    });
  }

  async ownerOf(taskId: string, turnId: string): Promise<Owner | undefined> {
    const row = await this.db
      .selectFrom(TURNS_TABLE)
      .select(['owner', 'tenant'])
      .where('task_id', '=', taskId)
      .where('turn_id', '=', turnId)
      .executeTakeFirst();
    return row && { owner: row.owner, tenant: row.tenant };
  }

  async unclaimedTasks(): Promise<string[]> {
    const rows = await this.db
      .selectFrom(`${TURNS_TABLE} as waiting`)
      .select('waiting.task_id')
      .distinct()
      .where('waiting.instance', 'is', null)
      .where(
        'waiting.created_at',
        '<',
        sql<Date>`now() - make_interval(secs => ${UNCLAIMED_AFTER_MS / 1000})`,
      )
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom(`${TURNS_TABLE} as running`)
              .select('running.id')
              .whereRef('running.task_id', '=', 'waiting.task_id')
              .where('running.instance', 'is not', null),
          ),
        ),
      )
      .execute();
    return rows.map((row) => row.task_id);
  }

  async turnsOf(instance: string): Promise<{ taskId: string; turnId: string }[]> {
    const rows = await this.db
      .selectFrom(TURNS_TABLE)
      .select(['task_id', 'turn_id'])
      .where('instance', '=', instance)
      .execute();
    return rows.map((row) => ({ taskId: row.task_id, turnId: row.turn_id }));
  }

  /** Judged by the database's clock, so that the machines' clocks do not matter. */
  async instancesPastLease(me: string): Promise<string[]> {
    const { rows } = await sql<{ instance: string }>`
      select distinct t.instance from ${sql.table(TURNS_TABLE)} t
      where t.instance is not null and t.instance <> ${me}
        and not exists (select 1 from ${sql.table(LEASES_TABLE)} l
                        where l.instance = t.instance and l.expires_at >= now())`.execute(this.db);
    return rows.map((row) => row.instance);
  }

  /**
   * Instances that died holding no turn: no takeover ever removes their
   * leases. One whose lease lapsed but that is alive is fenced out by this as
   * a takeover would fence it (its next renewal finds no row, and it takes a
   * lease again); leases that turns name are left for the takeover.
   */
  async removeIdleExpiredLeases(): Promise<string[]> {
    const { rows } = await sql<{ instance: string }>`
      delete from ${sql.table(LEASES_TABLE)} l
      where l.expires_at < now()
        and not exists (select 1 from ${sql.table(TURNS_TABLE)} t where t.instance = l.instance)
      returning l.instance`.execute(this.db);
    return rows.map((row) => row.instance);
  }
}
