import { sql, type Kysely } from 'kysely';
import type pg from 'pg';
import type { Logger } from 'pino';
import { retryWhileUnreachable, type AnyKysely } from '../store/index.js';
import { listenApplicationName, withApplicationName } from './connection-names.js';
import { SeenNotices } from './seen-notices.js';
import { EVENTS_TABLE, LEASES_TABLE, type ClusterTables } from './tables.js';
import {
  decodeBody,
  decodeHead,
  encodeBody,
  encodeHead,
  serialOf,
  type BusHead,
  type BusKind,
  type BusMessage,
} from './wire.js';

/** The one channel every instance listens on. */
export const CHANNEL = 'a2a_harness_events';
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; larger bodies go through a table. */
export const MAX_NOTIFY_BYTES = 7900;
const RECONNECT_MS = [100, 500, 1000, 2000, 5000];

export interface EventBusOptions {
  url: string;
  db: AnyKysely;
  instanceId: string;
  logger: Logger;
}

interface Handler {
  handle(message: BusMessage): void;
  /** Whether this process has a use for messages about the task; the body is parsed only then. */
  wants?(taskId: string): boolean;
}

type MessageOf<K extends BusKind> = Extract<BusMessage, { kind: K }>;

interface Pending {
  message: BusMessage;
  serial: number;
  /** Called once the batch holding it has been notified, or given up on. */
  done?: () => void;
}

/**
 * Events between instances sharing one PostgreSQL, with LISTEN/NOTIFY on one
 * channel. Each instance listens on a connection of its own; whether an
 * instance is alive is its lease's business (`InstanceLease`), not this
 * connection's, which may drop and come back. An instance ignores its own
 * notifications: it has delivered its events locally already.
 *
 * Sending is serialised, so that the events of a turn arrive in order; what
 * piles up while one NOTIFY is in flight goes in the next, in one statement.
 */
export class PgEventBus {
  readonly instanceId: string;
  private readonly db: Kysely<ClusterTables>;
  private client: pg.Client | undefined;
  private readonly handlers = new Map<BusKind, Handler>();
  /** Each with the serial it keeps when its NOTIFY is tried again, so that receivers know a copy. */
  private pending: Pending[] = [];
  private flushing: Promise<void> | undefined;
  private serial = 0;
  private received: Promise<void> = Promise.resolve();
  private readonly seen = new SeenNotices();
  private failures = 0;
  private closed = false;
  /** Set as `close` begins: sends that fail then are not tried again. */
  private closing = false;

  private constructor(
    private readonly options: EventBusOptions,
    /** The driver's client, loaded once the bus is made: SQLite starts never load it. */
    private readonly Client: typeof pg.Client,
  ) {
    this.instanceId = options.instanceId;
    this.db = options.db as Kysely<ClusterTables>;
  }

  /** Listens before it returns. */
  static async connect(options: EventBusOptions): Promise<PgEventBus> {
    const { default: pg } = await import('pg');
    const bus = new PgEventBus(options, pg.Client);
    await bus.listen();
    return bus;
  }

  on<K extends BusKind>(
    kind: K,
    handle: (message: MessageOf<K>) => void,
    wants?: (taskId: string) => boolean,
  ): void {
    this.handlers.set(kind, { handle: handle as (message: BusMessage) => void, wants });
  }

  send(message: BusMessage): void {
    this.enqueue(message);
  }

  /** `send`, settling once `message` has been notified (or given up on, which is logged). */
  sendAndWait(message: BusMessage): Promise<void> {
    return new Promise((done) => this.enqueue(message, done));
  }

  private enqueue(message: BusMessage, done?: () => void): void {
    if (this.closed) return done?.();
    this.pending.push({ message, serial: ++this.serial, done });
    if (!this.flushing) this.flushing = this.flush();
  }

  /**
   * `message` as one notification on `CHANNEL`, for a write to send inside its
   * transaction; undefined when it is too large for one (send it then).
   */
  payloadOf(message: BusMessage): string | undefined {
    const payload = encodeHead(this.instanceId, message) + encodeBody(message, ++this.serial);
    return Buffer.byteLength(payload) <= MAX_NOTIFY_BYTES ? payload : undefined;
  }

  /** Whether the LISTEN connection is up: without it this instance hears no other. */
  get listening(): boolean {
    return this.client !== undefined && !this.closed;
  }

  /** Settles when everything sent so far has been notified. */
  async flushed(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  /** Deletes stored bodies older than `ageMs`: every listener has read them by then. */
  async prune(ageMs: number): Promise<void> {
    await this.db
      .deleteFrom(EVENTS_TABLE)
      .where('created_at', '<', sql<Date>`now() - make_interval(secs => ${ageMs / 1000})`)
      .execute();
  }

  /** Sends what is pending, then stops listening. */
  async close(): Promise<void> {
    this.closing = true;
    await this.flushed();
    this.closed = true;
    await this.received;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async flush(): Promise<void> {
    // Yield once, so that events published in the same tick share one statement.
    await Promise.resolve();
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      try {
        // A lost connection or a restart must not lose a turn's final event for the other instances.
        await retryWhileUnreachable(() => this.notify(batch), { giveUp: () => this.closing });
      } catch (error) {
        this.options.logger.error(
          { err: error, events: batch.length },
          'cluster: could not notify the other instances',
        );
      }
      for (const { done } of batch) done?.();
    }
    this.flushing = undefined;
  }

  private async notify(batch: Pending[]): Promise<void> {
    const payloads: string[] = [];
    for (const { message, serial } of batch) {
      const head = encodeHead(this.instanceId, message);
      const body = encodeBody(message, serial);
      if (Buffer.byteLength(head) + Buffer.byteLength(body) <= MAX_NOTIFY_BYTES) {
        payloads.push(head + body);
        continue;
      }
      const row = await this.db
        .insertInto(EVENTS_TABLE)
        .values({ payload: body })
        .returning('id')
        .executeTakeFirstOrThrow();
      payloads.push(`${head}@${row.id}`);
    }
    // One statement, one transaction: the notifications keep this order. Only while
    // another instance holds a lease: a lone instance has no one to tell (`Cluster.join`
    // listens before it takes its lease, so a newcomer misses nothing it could want).
    await sql`
      select pg_notify(${CHANNEL}, payload) from unnest(${payloads}::text[]) as payload
      where exists (select 1 from ${sql.table(LEASES_TABLE)} where instance <> ${this.instanceId})`.execute(
      this.db,
    );
  }

  private async listen(): Promise<void> {
    const client = new this.Client({
      connectionString: withApplicationName(
        this.options.url,
        listenApplicationName(this.instanceId),
      ),
      keepAlive: true,
    });
    client.on('notification', (notification) => this.receive(notification.payload ?? ''));
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.client = client;
    this.failures = 0;
  }

  /** The listening connection broke: listen again, with backoff, until closed. */
  private lost(client: pg.Client, error?: Error): void {
    if (this.client !== client || this.closed) return;
    this.client = undefined;
    this.options.logger.warn(
      { err: error?.message },
      'cluster: lost the listening connection; reconnecting',
    );
    void client.end().catch(() => undefined);
    const retry = () => {
      if (this.closed) return;
      const delay = RECONNECT_MS[Math.min(this.failures++, RECONNECT_MS.length - 1)];
      setTimeout(() => {
        if (this.closed) return;
        this.listen().then(
          () => this.options.logger.info('cluster: listening again'),
          () => retry(),
        );
      }, delay).unref();
    };
    retry();
  }

  private receive(payload: string): void {
    const head = decodeHead(payload);
    if (!head || head.origin === this.instanceId) return;
    const handler = this.handlers.get(head.kind);
    if (!handler || (handler.wants && !handler.wants(head.taskId))) return;
    // In arrival order, even when a body must be fetched first.
    this.received = this.received
      .then(() => this.dispatch(head, handler))
      .catch((error: unknown) =>
        this.options.logger.error({ err: error, kind: head.kind }, 'cluster: bad notification'),
      );
  }

  private async dispatch(head: BusHead, handler: Handler): Promise<void> {
    let body = head.body;
    if (body.startsWith('@')) {
      const row = await this.db
        .selectFrom(EVENTS_TABLE)
        .select('payload')
        .where('id', '=', body.slice(1))
        .executeTakeFirst();
      if (!row) return;
      body = row.payload;
    }
    // A NOTIFY tried again after its commit went through arrives twice.
    const serial = serialOf(body);
    if (serial !== undefined && !this.seen.firstTime(head.origin, serial)) return;
    handler.handle(decodeBody(head.kind, head.taskId, body));
  }
}
