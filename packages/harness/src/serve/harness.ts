import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { callerOf, CommandRegistry, CommandsCard } from 'a2a-commands';
import { commandsContextBuilder, CommandsRequestHandler } from 'a2a-commands/server';
import type { A2ARequestHandler } from '@a2a-js/sdk/server';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import {
  Cluster,
  createClusterTables,
  poolApplicationName,
  withApplicationName,
} from '../cluster/index.js';
import { registerBuiltins } from '../commands/builtins/index.js';
import { CustomCommands, customCommandRun } from '../commands/custom/index.js';
import { customCommandAccess } from '../commands/custom/callers.js';
import type { HarnessConfig } from '../config/config.js';
import { resolveLimits, type Limits } from '../config/limits.js';
import { NO_METRICS, type HarnessMetrics } from '../metrics/harness-metrics.js';
import { MeteredRequestHandler } from '../metrics/metered-handler.js';
import { bothRelays, createPushNotifications, withPushNotifications } from '../push/index.js';
import { createModelCatalog, type ModelCatalog } from '../models/catalog.js';
import { InLoopModelStreams, type ModelStreams } from '../models/model-streams.js';
import { StreamWorker } from '../models/stream-worker-thread.js';
import { WorkerModelStreams } from '../models/worker-streams.js';
import { openDatabase, databaseUrl, kindOf, redactUrl, HarnessTaskStore } from '../store/index.js';
import { continueContext } from '../turns/context-continuation.js';
import { DEFAULT_TURN_OPTIONS } from '../turns/turn-options.js';
import { requestLog } from '../request-scope.js';
import { TaskEvents } from '../turns/task-events.js';
import { INTERRUPTED_BY_RESTART, INTERRUPTED_BY_SHUTDOWN } from '../turns/turn-endings.js';
import { TurnHandler } from '../turns/turn-handler.js';
import { TurnLifecycle } from '../turns/turn-lifecycle.js';
import { baseAgentCard, withBearerAuth, withGrpcInterface } from './agent-card.js';
import { withExtendedCard } from './caller-card.js';
import type { ApiKeys } from './api-keys.js';
import { hidingInternalErrors } from './internal-errors.js';
import { MessageLimitsHandler } from './message-limits.js';
import { MessageRetries } from './message-retries.js';
import { OpenStreams } from './open-streams.js';
import { harnessCompletions, withCompletion } from './completion.js';
import { RateLimiter } from './rate-limits.js';
import type { ArgumentCompletions } from 'a2a-commands/server';
import { BEARER_SCHEME_NAME } from './auth.js';

export interface HarnessOptions {
  dataDir: string;
  /** `postgres://...`; a SQLite file under `dataDir` when absent. */
  databaseUrl?: string;
  config: HarnessConfig;
  logger: Logger;
  /** The URL clients reach this server at, for the card. */
  publicUrl: string;
  env?: NodeJS.ProcessEnv;
  /** Where `./.a2a-harness/commands` is looked for. */
  cwd?: string;
  /** For tests: how models are fetched. */
  fetch?: typeof fetch;
  /**
   * For tests that run the harness from its sources: the model stream worker
   * already built from them, started instead of compiling them again per harness.
   */
  streamWorker?: URL;
  /** When given, every call but the card needs one of these keys, and tasks belong to their principal. */
  apiKeys?: ApiKeys;
  /** Where commands, turns and writes are counted and timed; nowhere when absent. */
  metrics?: HarnessMetrics;
  /** The gRPC binding's address (`host:port`) for the card, when it is served. */
  grpcUrl?: string;
  /**
   * On a shared PostgreSQL, this instance's name, which no other running
   * instance has: started again under it, it ends its last run's turns at once.
   */
  instanceName?: string;
}

export interface Harness {
  card: CommandsCard;
  registry: CommandRegistry;
  /** What the A2A routes call: the message-size checks, retries (SEMANTICS §8), then the commands handler. */
  requestHandler: A2ARequestHandler;
  /** The input limits in force: the config's, with defaults for the rest. */
  limits: Limits;
  contextBuilder: ReturnType<typeof commandsContextBuilder>;
  store: HarnessTaskStore;
  catalog: ModelCatalog;
  turns: TurnLifecycle;
  /** The command completion extension's route logic (served by `commandsRoutes`). */
  completions: ArgumentCompletions;
  apiKeys?: ApiKeys;
  /** For `/readyz`: the database answers and its schema is up to date; on a cluster, LISTEN is up. */
  readiness(): Promise<Readiness>;
  /** Ends the turns in flight cleanly, stops watching command files and closes the database. */
  close(): Promise<void>;
}

export interface Readiness {
  ready: boolean;
  database: 'open' | 'unreachable' | 'closed';
  /** Always true once the harness exists: it migrates before it opens the database. */
  migrated: boolean;
  /** On PostgreSQL only: the LISTEN connection to the other instances. */
  listening?: boolean;
}

export { INTERRUPTED_BY_RESTART, INTERRUPTED_BY_SHUTDOWN };

/** Everything the harness is, wired together; the HTTP layer is `createApp`. */
export async function createHarness(options: HarnessOptions): Promise<Harness> {
  const { logger, config } = options;
  const metrics = options.metrics ?? NO_METRICS;
  const limits = resolveLimits(config.limits);
  // Models first: a bad provider config fails before any file is written.
  const catalog = await createModelCatalog({
    config,
    env: options.env ?? process.env,
    logger,
    fetch: options.fetch,
  });
  const url = databaseUrl(options.dataDir, options.databaseUrl);
  // On PostgreSQL, instances may share the database: see docs/scaling.md.
  const shared = kindOf(url) === 'postgres';
  const instanceId = crypto.randomUUID();
  const database = await openDatabase(
    shared ? withApplicationName(url, poolApplicationName(instanceId)) : url,
    shared ? [createClusterTables] : [],
    {},
    (error) =>
      logger.warn({ err: error.message }, 'database: lost a connection; the pool opens a new one'),
  );
  logger.info({ database: redactUrl(url) }, 'database ready');
  const store = new HarnessTaskStore(database.db, {
    onWrite: (seconds) => metrics.dbWrite(seconds),
    historyCharsPerOwner: limits.historyCharsPerOwner,
  });
  const cluster = shared
    ? await Cluster.join({
        url,
        db: database.db,
        logger,
        interruptedNote: INTERRUPTED_BY_RESTART,
        instanceId,
        instanceName: options.instanceName,
        leaseMs: config.cluster?.leaseMs,
      })
    : undefined;
  if (cluster) {
    logger.info(
      { instance: cluster.instanceId, name: options.instanceName },
      'joined the instances on this database',
    );
    store.notifyRepliesWith(cluster.replyNotifier);
  }

  const push = createPushNotifications({
    db: database.db,
    ownerOf: (context) => store.ownerOf(context),
    loadHead: (taskId, context) => store.loadHead(taskId, context),
    options: config.push,
    logger,
  });

  const registry = new CommandRegistry();
  const plain = baseAgentCard(options.publicUrl, config.name);
  const served = options.grpcUrl ? withGrpcInterface(plain, options.grpcUrl) : plain;
  const base = push ? withPushNotifications(served) : served;
  const completion = withCompletion(options.publicUrl);
  const card = new CommandsCard(
    options.apiKeys ? withBearerAuth(base, BEARER_SCHEME_NAME) : base,
    registry,
    {
      // With keys, a caller may have commands of their own once some command is
      // for some callers only: their extended card lists them. Until then the
      // card offers none, so clients that read it whenever offered (0.3's) need no key to discover.
      extend: (built, commands) =>
        completion(
          options.apiKeys && registry.hasRestricted ? withExtendedCard(built) : built,
          commands,
        ),
    },
  );
  const shutdown = new AbortController();

  // What this instance publishes goes to the other instances and, once, to webhooks.
  const events = new TaskEvents(bothRelays(cluster?.turnRelay, push?.turnRelay));
  const turnOptions = { ...DEFAULT_TURN_OPTIONS, ...config.turns };
  const streams = modelStreams(catalog, turnOptions.modelWorker, options);
  const turns = new TurnLifecycle({
    store,
    catalog,
    streams,
    events,
    logger,
    scheduler: cluster?.scheduler,
    maxQueuedPerTask: limits.queuedPerTask,
    options: turnOptions,
    metrics,
  });
  if (!cluster) {
    // One process per SQLite file: whatever was working when it stopped was interrupted.
    const interrupted = await turns.recover(INTERRUPTED_BY_RESTART);
    if (interrupted.length > 0)
      logger.warn({ tasks: interrupted }, 'ended turns interrupted by the last stop');
  }
  const turnHandler = new TurnHandler({ store, agentCard: card.provider, turns });
  const rateLimiter = new RateLimiter(limits);
  const commands = new CommandsRequestHandler({
    inner: turnHandler,
    registry,
    store,
    agentCard: card.provider,
    extendedAgentCard: (context) => card.forCaller(callerOf(context)),
    signal: shutdown.signal,
    argumentChars: limits.argumentChars,
    onError: (error, where, context) => {
      // `/name` is a handler that threw; other places are background work.
      if (where.startsWith('/')) metrics.commandFailed(where.slice(1));
      requestLog(context, logger).error({ err: error, where }, 'command failed');
    },
    relay: bothRelays(cluster?.replyRelay, push?.replyRelay),
    // Charged by what runs: commands, turns, and the turns commands start.
    ...(rateLimiter.active && { admit: rateLimiter.admit }),
    continueContext: (contextId, taskId, context) =>
      continueContext(store, contextId, taskId, context),
    onCommandDone: (name, outcome, seconds) => metrics.commandRan(name, outcome, seconds),
  });
  if (cluster) {
    cluster.deliverTo(events, commands.live);
    // Only the turns of instances that are gone: the others are running theirs.
    const interrupted = await cluster.start();
    if (interrupted.length > 0)
      logger.warn({ tasks: interrupted }, 'ended turns interrupted by the last stop');
  }
  const metered = new MeteredRequestHandler(commands);
  metrics.readGauges({
    queueDepth: () => turns.scheduler.waiting(),
    openStreams: () => metered.openStreams,
  });
  registerBuiltins(registry, { catalog, registry, store, turns: turns.scheduler });

  const cwd = options.cwd ?? process.cwd();
  // Made now so that it is watched: files dropped in later show in the card at once.
  mkdirSync(path.join(options.dataDir, 'commands'), { recursive: true });
  const custom = new CustomCommands({
    dirs: [
      path.join(options.dataDir, 'commands'),
      path.join(cwd, '.a2a-harness', 'commands'),
      ...(config.commandDirs ?? []),
    ],
    registry,
    logger,
    runFor: (definition) => customCommandRun(definition, { maxPromptChars: limits.textChars }),
    maxFileBytes: limits.commandFileBytes,
    allowedFor: customCommandAccess(options.apiKeys, (fields, message) =>
      logger.warn(fields, message),
    ),
  });
  await custom.load();
  await custom.watch();

  return {
    card,
    registry,
    requestHandler: hidingInternalErrors(
      new OpenStreams(
        new MessageLimitsHandler(
          new MessageRetries(push ? push.handler(metered) : metered, { store, events }),
          limits,
        ),
        limits,
        logger,
        options.apiKeys,
      ),
      logger,
    ),
    limits,
    contextBuilder: commandsContextBuilder(),
    store,
    catalog,
    turns,
    completions: harnessCompletions(registry, store),
    apiKeys: options.apiKeys,
    async readiness() {
      const open = shutdown.signal.aborted
        ? false
        : await sql`select 1`.execute(database.db).then(
            () => true,
            () => false,
          );
      const listening = cluster?.listening;
      return {
        // Fenced out, it takes no turns until it holds a lease again.
        ready: open && listening !== false && cluster?.leased !== false,
        database: shutdown.signal.aborted ? 'closed' : open ? 'open' : 'unreachable',
        migrated: true,
        ...(cluster ? { listening } : {}),
      };
    },
    async close() {
      shutdown.abort();
      await turns.shutdown(INTERRUPTED_BY_SHUTDOWN);
      push?.close();
      await streams.close();
      await cluster?.close();
      await custom.close();
      await database.close();
    },
  };
}

/**
 * Answers stream on a worker thread unless the config says otherwise, or a
 * test injects `fetch` (a function cannot cross to another thread).
 */
function modelStreams(
  catalog: ModelCatalog,
  onWorker: boolean,
  options: HarnessOptions,
): ModelStreams {
  if (!onWorker || options.fetch) return new InLoopModelStreams(catalog);
  const { offline, providers } = options.config;
  const setup = { config: { offline, providers }, env: { ...(options.env ?? process.env) } };
  return new WorkerModelStreams(catalog, setup, StreamWorker.shared(options.streamWorker));
}
