import { TaskPushNotificationConfig } from '@a2a-js/sdk';
import type {
  PushNotificationStore,
  ServerCallContext,
  StoredPushNotificationConfig,
} from '@a2a-js/sdk/server';
import type { Kysely } from 'kysely';
import type { AnyKysely } from './advisory-locks.js';
import type { Owner } from './owner.js';

export const PUSH_CONFIGS_TABLE = 'a2a_harness_push_configs';

/** One webhook of one task: the config as the client sent it, and who may see it. */
export interface PushConfigRow {
  task_id: string;
  config_id: string;
  tenant: string;
  owner: string;
  /** The A2A version it was made over: its webhook gets bodies in that version's shape. */
  wire_version: string;
  /** `TaskPushNotificationConfig` as JSON. */
  config: string;
}

export interface PushConfigsTable {
  [PUSH_CONFIGS_TABLE]: PushConfigRow;
}

/** Migration 0006: the table, keyed by task and config id. */
export async function createPushConfigsTable(db: Kysely<PushConfigsTable>): Promise<void> {
  await db.schema
    .createTable(PUSH_CONFIGS_TABLE)
    .ifNotExists()
    .addColumn('task_id', 'varchar(36)', (column) => column.notNull())
    .addColumn('config_id', 'text', (column) => column.notNull())
    .addColumn('tenant', 'text', (column) => column.notNull())
    .addColumn('owner', 'text', (column) => column.notNull())
    .addColumn('wire_version', 'text', (column) => column.notNull())
    .addColumn('config', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint(`${PUSH_CONFIGS_TABLE}_pk`, ['task_id', 'config_id'])
    .execute();
}

/**
 * Push notification configs in the harness's database, scoped as tasks are:
 * a caller reads, lists and deletes only the configs it made (its tenant and
 * principal), and the handler makes them only on the caller's own tasks.
 * Delivery reads a task's configs whoever made them (`forDelivery`).
 */
export class PushConfigStore implements PushNotificationStore {
  private readonly db: Kysely<PushConfigsTable>;

  /** `ownerOf` is the task store's: configs are owned by the rule tasks are. */
  constructor(
    db: AnyKysely,
    private readonly ownerOf: (context: ServerCallContext) => Owner,
  ) {
    this.db = db as Kysely<PushConfigsTable>;
  }

  /** Creates or replaces; an empty id is given a new one, in place (the SDK's contract). */
  async save(
    taskId: string,
    context: ServerCallContext,
    config: TaskPushNotificationConfig,
  ): Promise<void> {
    if (!config.id) config.id = crypto.randomUUID();
    const { tenant, owner } = this.ownerOf(context);
    const row: PushConfigRow = {
      task_id: taskId,
      config_id: config.id,
      tenant,
      owner,
      wire_version: wireVersionOf(context),
      config: JSON.stringify(TaskPushNotificationConfig.toJSON({ ...config, taskId })),
    };
    await this.db
      .insertInto(PUSH_CONFIGS_TABLE)
      .values(row)
      .onConflict((conflict) =>
        conflict.columns(['task_id', 'config_id']).doUpdateSet({
          tenant: row.tenant,
          owner: row.owner,
          wire_version: row.wire_version,
          config: row.config,
        }),
      )
      .execute();
  }

  async load(taskId: string, context: ServerCallContext): Promise<TaskPushNotificationConfig[]> {
    return (await this.loadWithMetadata(taskId, context)).map((stored) => stored.config);
  }

  async loadWithMetadata(
    taskId: string,
    context: ServerCallContext,
  ): Promise<StoredPushNotificationConfig[]> {
    const { tenant, owner } = this.ownerOf(context);
    const rows = await this.db
      .selectFrom(PUSH_CONFIGS_TABLE)
      .select(['config', 'wire_version'])
      .where('task_id', '=', taskId)
      .where('tenant', '=', tenant)
      .where('owner', '=', owner)
      .orderBy('config_id')
      .execute();
    return rows.map(storedOf);
  }

  /** Deletes one config, or all of the caller's on the task without `configId`; deleting what is gone is no error. */
  async delete(taskId: string, context: ServerCallContext, configId?: string): Promise<void> {
    const { tenant, owner } = this.ownerOf(context);
    let query = this.db
      .deleteFrom(PUSH_CONFIGS_TABLE)
      .where('task_id', '=', taskId)
      .where('tenant', '=', tenant)
      .where('owner', '=', owner);
    if (configId !== undefined) query = query.where('config_id', '=', configId);
    await query.execute();
  }

  /** Every config of the task, for sending its events: outside any request. */
  async forDelivery(taskId: string): Promise<StoredPushNotificationConfig[]> {
    const rows = await this.db
      .selectFrom(PUSH_CONFIGS_TABLE)
      .select(['config', 'wire_version'])
      .where('task_id', '=', taskId)
      .orderBy('config_id')
      .execute();
    return rows.map(storedOf);
  }
}

function storedOf(
  row: Pick<PushConfigRow, 'config' | 'wire_version'>,
): StoredPushNotificationConfig {
  return {
    config: TaskPushNotificationConfig.fromJSON(JSON.parse(row.config)),
    wireVersion: row.wire_version,
  };
}

/** The version the config was made over: 0.3's calls get 0.3-shaped webhook bodies. */
function wireVersionOf(context: ServerCallContext): string {
  const requested = context.requestedVersion?.trim();
  return !requested || requested.startsWith('0.') ? '0.3' : '1.0';
}
