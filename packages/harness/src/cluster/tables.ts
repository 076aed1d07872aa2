import { sql } from 'kysely';

import { LEASES_TABLE, TURNS_TABLE, type AnyKysely, type TurnRow } from '../store/index.js';

export { LEASES_TABLE, TURNS_TABLE, type TurnRow };
export const EVENTS_TABLE = 'a2a_harness_events';

/** An event too large for a NOTIFY payload (8000 bytes): the notification carries its id. */
export interface EventRow {
  id: string;
  payload: string;
  created_at: Date;
}

/** An instance's lease: it is running until `expires_at`, by the database's clock. */
export interface LeaseRow {
  instance: string;
  expires_at: Date;
  /** The name it runs under, which no other running instance has (migration 0007). */
  name: string | null;
}

export interface ClusterTables {
  [LEASES_TABLE]: LeaseRow;
  [TURNS_TABLE]: Omit<TurnRow, 'id' | 'created_at'> & { id?: string; created_at?: Date };
  [EVENTS_TABLE]: Omit<EventRow, 'id' | 'created_at'> & { id?: string; created_at?: Date };
}

/** PostgreSQL only: the tables processes sharing one database coordinate through. */
export async function createClusterTables(db: AnyKysely): Promise<void> {
  await db.schema
    .createTable(TURNS_TABLE)
    .ifNotExists()
    .addColumn('id', 'bigserial', (column) => column.primaryKey())
    .addColumn('task_id', 'varchar(36)', (column) => column.notNull())
    .addColumn('turn_id', 'text', (column) => column.notNull())
    .addColumn('owner', 'text', (column) => column.notNull())
    .addColumn('tenant', 'text', (column) => column.notNull())
    .addColumn('instance', 'text')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint(`${TURNS_TABLE}_turn`, ['task_id', 'turn_id'])
    .execute();
  await db.schema
    .createIndex(`${TURNS_TABLE}_task`)
    .ifNotExists()
    .on(TURNS_TABLE)
    .columns(['task_id', 'id'])
    .execute();
  await db.schema
    .createIndex(`${TURNS_TABLE}_instance`)
    .ifNotExists()
    .on(TURNS_TABLE)
    .column('instance')
    .where(sql.ref('instance'), 'is not', null)
    .execute();
  // The sweep's look for waiting turns nobody runs reads only these.
  await db.schema
    .createIndex(`${TURNS_TABLE}_waiting`)
    .ifNotExists()
    .on(TURNS_TABLE)
    .column('task_id')
    .where(sql.ref('instance'), 'is', null)
    .execute();
  await db.schema
    .createTable(EVENTS_TABLE)
    .ifNotExists()
    .addColumn('id', 'bigserial', (column) => column.primaryKey())
    .addColumn('payload', 'text', (column) => column.notNull())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
}
