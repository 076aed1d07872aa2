import type { StreamRelay } from 'a2a-commands/server';
import type { LiveStreams } from 'a2a-commands/server/internal';
import type { Logger } from 'pino';
import type { AnyKysely, ReplyNotifier } from '../store/index.js';
import type { TaskEventRelay, TaskEvents } from '../turns/task-events.js';
import type { SchedulerDeps } from '../turns/turn-scheduler.js';
import { ClusterTurns } from './cluster-turns.js';
import { CHANNEL, PgEventBus } from './event-bus.js';
import { DEFAULT_LEASE_MS, InstanceLease } from './instance-lease.js';

export { createClusterTables } from './tables.js';
export { ClusterTurns } from './cluster-turns.js';
export { PgEventBus, CHANNEL, MAX_NOTIFY_BYTES } from './event-bus.js';
export { DEFAULT_LEASE_MS } from './instance-lease.js';
export { poolApplicationName, withApplicationName } from './connection-names.js';

/** How often an instance looks for dead instances' turns and for waiting turns nobody runs. */
export const SWEEP_MS = 1000;

export interface ClusterOptions {
  url: string;
  db: AnyKysely;
  logger: Logger;
  /** The note a turn gets when the instance running it died. */
  interruptedNote: string;
  /** This instance's id: its pool's connections should already carry it (`poolApplicationName`). */
  instanceId: string;
  /** How long this instance's lease lasts unrenewed (`DEFAULT_LEASE_MS`). */
  leaseMs?: number;
  /** Its name, which no other running instance has: its earlier runs under it are ended at start. */
  instanceName?: string;
}

/**
 * This process as one of several instances sharing a PostgreSQL database:
 * turn events and command replies travel between them over LISTEN/NOTIFY,
 * and turns are queued and claimed in the database.
 */
export class Cluster {
  private turns: ClusterTurns | undefined;

  private constructor(
    private readonly options: ClusterOptions,
    readonly bus: PgEventBus,
    private readonly lease: InstanceLease,
  ) {}

  /**
   * Listens, then takes this instance's lease. The others notify only while
   * another instance holds a lease, so listening first means nothing sent
   * after the lease is seen can pass this instance by.
   */
  static async join(options: ClusterOptions): Promise<Cluster> {
    const { db, instanceId, logger } = options;
    const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    const bus = await PgEventBus.connect(options);
    const lease = new InstanceLease(db, instanceId, leaseMs, logger, options.instanceName);
    try {
      await lease.take();
    } catch (error) {
      await bus.close();
      throw error;
    }
    return new Cluster(options, bus, lease);
  }

  /** Whether this instance hears the others (its LISTEN connection is up). */
  get listening(): boolean {
    return this.bus.listening;
  }

  /** Whether this instance holds its lease: not between being fenced out and taking it again. */
  get leased(): boolean {
    return this.lease.held;
  }

  get instanceId(): string {
    return this.bus.instanceId;
  }

  /** For `TaskEvents`: turn events go to the other instances too. */
  readonly turnRelay: TaskEventRelay = {
    send: (taskId, event) => this.bus.send({ kind: 'turn', taskId, event }),
  };

  /** For the store: command replies told to the other instances inside their writes. */
  readonly replyNotifier: ReplyNotifier = {
    channel: CHANNEL,
    payloadOf: (taskId, event) => this.bus.payloadOf({ kind: 'reply', taskId, event }),
  };

  /**
   * For `CommandsRequestHandler`: command replies go to the other instances too,
   * unless the store's write told them. The answer waits for the notification, as
   * it waits for a write's: the caller's next reply, which may ride on its own
   * write, must not reach the others first.
   */
  readonly replyRelay: StreamRelay = {
    send: (taskId, event, told) => {
      if (!told?.byStore) return this.bus.sendAndWait({ kind: 'reply', taskId, event });
    },
  };

  /** For `TurnHandler`: turns queued and claimed in the database. */
  readonly scheduler = (deps: SchedulerDeps): ClusterTurns =>
    (this.turns = new ClusterTurns({
      ...deps,
      db: this.options.db,
      bus: this.bus,
      logger: this.options.logger,
      interruptedNote: this.options.interruptedNote,
      lease: this.lease,
    }));

  /** What the other instances send is delivered to this process's streams. */
  deliverTo(events: TaskEvents, live: LiveStreams): void {
    // Every turn event is read, watched or not: a GetTask or SubscribeToTask that
    // comes here later gets the answer so far from them (SEMANTICS §4).
    this.bus.on('turn', ({ taskId, event }) => events.deliver(taskId, event));
    this.bus.on(
      'reply',
      ({ taskId, event }) => live.deliver(taskId, event),
      (taskId) => live.count(taskId) > 0,
    );
  }

  /**
   * Ends the turns of this instance's earlier runs and of instances whose
   * lease expired, then keeps looking every `SWEEP_MS` and renewing this
   * instance's lease. Returns the tasks whose turns the first sweep ended.
   */
  async start(): Promise<string[]> {
    const turns = this.requireTurns();
    const previous = await turns.endPreviousRuns();
    if (previous.length > 0)
      this.options.logger.warn(
        { tasks: previous, name: this.options.instanceName },
        'ended the turns of its previous run',
      );
    const ended = await turns.sweep();
    this.lease.startRenewing(() => void turns.fencedOut());
    turns.startSweeping(SWEEP_MS, (tasks) =>
      this.options.logger.warn({ tasks }, 'ended turns of an instance that stopped'),
    );
    return ended;
  }

  /** After the turns in flight have ended: the lease goes, the last events go out, then the connection. */
  async close(): Promise<void> {
    await this.lease.release();
    await this.bus.close();
  }

  private requireTurns(): ClusterTurns {
    if (!this.turns) throw new Error('the cluster scheduler was not given to the TurnHandler');
    return this.turns;
  }
}
