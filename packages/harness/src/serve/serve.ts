import { createServer, type Server } from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { expressShapedObjects } from './express-objects.js';
import type { HarnessConfig } from '../config/config.js';
import type { ApiKeys } from './api-keys.js';
import { resolveLimits } from '../config/limits.js';
import { createApp } from './app.js';
import { applyConnectionLimits, keepCloseAsked, TIMEOUT_CHECK_MS } from './connections.js';
import { createHarness, type Harness } from './harness.js';
import type { GrpcListening } from './grpc/grpc-server.js';
import { jsonRpcLane } from './jsonrpc-lane/index.js';
import { jsonRpcChain } from './jsonrpc-chain.js';
import { startUpSwitch } from './start-up.js';
import { PrometheusMetrics } from '../metrics/prometheus.js';

/** How long open streams get to end by themselves at shutdown. */
const STREAM_GRACE_MS = 2000;

export interface ServeOptions {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl?: string;
  /** What the card names; the listening address by default. */
  publicUrl?: string;
  /** On a shared PostgreSQL, this instance's name (`--instance-name`); by default the host's name, `host` and the port. */
  instanceName?: string;
  config: HarnessConfig;
  logger: Logger;
  env?: NodeJS.ProcessEnv;
  apiKeys?: ApiKeys;
  /** Serve `/metrics` to anyone who can reach the port, even when keys are on. */
  metricsPublic?: boolean;
  /** The credential `/metrics` asks for; API keys do not read it. */
  metricsToken?: string;
  /** Serve the gRPC binding on this port (0 picks one); the config's `grpc.port` otherwise; off when neither. */
  grpcPort?: number;
  /** The web chat's build served at `/ui`; the installed `a2a-web-chat`'s by default. */
  webUiDir?: string;
  /** For tests that run the sources: the model stream worker built from them (see `createHarness`). */
  streamWorker?: URL;
}

export interface RunningHarness {
  /** The URL the card names. */
  url: string;
  /** Where the server listens; the same as `url` unless `publicUrl` was given. */
  listeningUrl: string;
  server: Server;
  /** The gRPC binding's address (`host:port`) when it is served. */
  grpcUrl?: string;
  harness: Harness;
  /** Stop accepting, end the turns in flight cleanly, close the database. */
  stop(): Promise<void>;
}

/**
 * Listens first, so that the card can name the real port when `--port 0` picked
 * one; until the harness is ready every request but `/healthz` gets 503 with
 * `Retry-After` (none waits unanswered).
 */
export async function serve(options: ServeOptions): Promise<RunningHarness> {
  const limits = resolveLimits(options.config.limits);
  const startUp = startUpSwitch();
  const objects = expressShapedObjects();
  const serverOptions = { ...objects.serverOptions, connectionsCheckingInterval: TIMEOUT_CHECK_MS };
  const server = createServer(serverOptions, (req, res) => {
    keepCloseAsked(res);
    startUp.listener(req, res);
  });
  applyConnectionLimits(server, limits);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const listening = `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${port}`;
  const url = options.publicUrl?.replace(/\/+$/, '') ?? listening;
  const metrics = new PrometheusMetrics();
  let harness: Harness;
  let grpc: GrpcListening | undefined;
  let grpcUrl: string | undefined;
  try {
    const grpcPort = options.grpcPort ?? options.config.grpc?.port;
    if (grpcPort !== undefined) {
      // Loaded only when asked for: grpc-js takes a while to load.
      const { listenGrpc } = await import('./grpc/grpc-server.js');
      grpc = await listenGrpc(options.host, grpcPort, limits.bodyBytes);
      grpcUrl = `${new URL(url).hostname}:${grpc.port}`;
    }
    // Unique to this process while it runs: nobody else on this host listens on this address and port.
    const instanceName = options.instanceName ?? `${os.hostname()}/${options.host}:${port}`;
    harness = await createHarness({ ...options, publicUrl: url, metrics, grpcUrl, instanceName });
  } catch (error) {
    server.close();
    server.closeAllConnections();
    grpc?.cut();
    throw error;
  }
  grpc?.serve(harness, options.logger);
  // Declared once; the app and the lane in front of it are both built from it.
  const chain = jsonRpcChain(harness, options.logger);
  const app = createApp(
    harness,
    options.logger,
    {
      metrics,
      access: {
        public: options.metricsPublic ?? false,
        token: options.metricsToken,
        apiKeys: options.apiKeys,
      },
    },
    chain,
    { dir: options.webUiDir },
  );
  objects.adopt(app);
  startUp.ready(jsonRpcLane({ harness, chain, app }));
  // Always said, unless logs are off: with `--port 0` this line is the only place the port appears.
  const announcer =
    options.logger.level === 'silent'
      ? options.logger
      : options.logger.child({}, { level: 'info' });
  warnAboutAccess(announcer, options.host, options.apiKeys);
  announcer.info({ url, host: options.host, port }, `a2a-harness listening on ${url}`);
  if (grpcUrl) announcer.info({ grpcUrl, port: grpc!.port }, `gRPC binding on ${grpcUrl}`);

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      options.logger.info('shutting down');
      const httpClosed = new Promise<void>((resolve) => server.close(() => resolve()));
      // gRPC too takes no new calls from now on.
      const closed = Promise.all([httpClosed, grpc?.stopTaking()]);
      await harness.close();
      // Turn streams got their last event; give them a moment to flush it and end.
      server.closeIdleConnections();
      await Promise.race([
        closed,
        new Promise((resolve) => setTimeout(resolve, STREAM_GRACE_MS).unref()),
      ]);
      // Subscriptions to idle tasks never end by themselves.
      server.closeAllConnections();
      grpc?.cut();
      await closed;
      options.logger.info('stopped');
      options.logger.flush();
    })());
  return { url, listeningUrl: listening, server, grpcUrl, harness, stop };
}

/** `localhost`, `::1` and all of 127.0.0.0/8: reachable from this machine only. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}

/** Says how callers are checked, and says it loudly when anyone on the network may call unchecked. */
function warnAboutAccess(logger: Logger, host: string, apiKeys: ApiKeys | undefined): void {
  if (apiKeys) {
    logger.info(
      { principals: apiKeys.principals },
      'API keys required for every call but the card',
    );
    if (apiKeys.shortKeys.length > 0) {
      logger.warn(
        { principals: apiKeys.shortKeys },
        'some API keys are shorter than 16 characters and could be guessed; use long random keys',
      );
    }
    return;
  }
  if (!isLoopback(host)) {
    logger.warn(
      { host },
      `WARNING: listening on ${host} WITHOUT API KEYS: anyone who can reach this port can read and write every task. Set HARNESS_API_KEYS or --api-keys, or listen on 127.0.0.1.`,
    );
  }
}
