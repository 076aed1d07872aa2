import { Command, InvalidArgumentError, Option } from 'commander';
import {
  defaultLogFormat,
  LOG_FORMATS,
  logDestination,
  type LogFormat,
} from '../serve/log-format.js';

/**
 * The server's modules, loaded only when `serve` runs: they take seconds to
 * load, and `a2a-harness chat` and `send` need none of them.
 */
async function serverModules() {
  const [heap, config, keys, keyReload, logging, consoleRouting, serving] = await Promise.all([
    import('../debug/heap-snapshots.js'),
    import('../config/config.js'),
    import('../serve/api-keys.js'),
    import('../serve/key-reload.js'),
    import('../serve/logging.js'),
    import('../serve/console-routing.js'),
    import('../serve/serve.js'),
  ]);
  return {
    heapSnapshotsOnSignal: heap.heapSnapshotsOnSignal,
    loadConfig: config.loadConfig,
    loadApiKeys: keys.loadApiKeys,
    reloadApiKeysOnHangUp: keyReload.reloadApiKeysOnHangUp,
    createLogger: logging.createLogger,
    routeConsoleTo: consoleRouting.routeConsoleTo,
    serve: serving.serve,
  };
}

function port(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65535) {
    throw new InvalidArgumentError('a port is a whole number from 0 to 65535 (0 picks a free one)');
  }
  return parsed;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function serveCommand(): Command {
  return new Command('serve')
    .description(
      'serve the agent over A2A 1.0 (JSON-RPC, HTTP+JSON and SSE; gRPC with --grpc-port)',
    )
    .addOption(
      new Option('--host <host>', 'interface to listen on')
        .env('HARNESS_HOST')
        .default('127.0.0.1'),
    )
    .addOption(
      new Option('--port <port>', 'port; 0 picks a free one')
        .env('HARNESS_PORT')
        .default(8080)
        .argParser(port),
    )
    .addOption(
      new Option(
        '--grpc-port <port>',
        "also serve A2A's gRPC binding on this port; 0 picks a free one (default: off, or the config's grpc.port)",
      )
        .env('HARNESS_GRPC_PORT')
        .argParser(port),
    )
    .addOption(
      new Option('--data <dir>', 'data directory').env('HARNESS_DATA').default('./.a2a-harness'),
    )
    .addOption(new Option('--config <file>', 'config file (YAML or JSON)').env('HARNESS_CONFIG'))
    .addOption(
      new Option(
        '--database-url <url>',
        'postgres://... to keep tasks in PostgreSQL (default: SQLite under --data)',
      ).env('DATABASE_URL'),
    )
    .addOption(
      new Option(
        '--public-url <url>',
        'the URL clients reach this server at, for the card (default: the listening address)',
      ).env('HARNESS_PUBLIC_URL'),
    )
    .addOption(
      new Option(
        '--api-keys <file>',
        'require API keys: one principal=key per line (also HARNESS_API_KEYS=alice=key1,bob=key2)',
      ).env('HARNESS_API_KEYS_FILE'),
    )
    .addOption(
      new Option(
        '--instance-name <name>',
        "this instance's name among those sharing a PostgreSQL database, unique to it; restarted under it, it ends its last run's turns at once (default: host name, listening address and port)",
      ).env('HARNESS_INSTANCE_NAME'),
    )
    .addOption(
      new Option('--log-level <level>', 'log level')
        .env('HARNESS_LOG_LEVEL')
        .default('info')
        .choices(LOG_LEVELS),
    )
    .addOption(
      new Option(
        '--log-format <format>',
        'log lines: json, or pretty for people (default: pretty on a terminal, json otherwise)',
      )
        .env('HARNESS_LOG_FORMAT')
        .choices(LOG_FORMATS),
    )
    .addOption(
      new Option(
        '--metrics-public',
        'serve /metrics to anyone who can reach the port, even when keys are on (for a scraper on a private network)',
      ),
    )
    .addOption(
      new Option(
        '--metrics-token <token>',
        '/metrics answers only "Authorization: Bearer <token>"; API keys do not read it',
      ).env('HARNESS_METRICS_TOKEN'),
    )
    .action(
      async (options: {
        host: string;
        port: number;
        grpcPort?: number;
        data: string;
        config?: string;
        databaseUrl?: string;
        publicUrl?: string;
        apiKeys?: string;
        instanceName?: string;
        logLevel: string;
        logFormat?: LogFormat;
        metricsPublic?: boolean;
        metricsToken?: string;
      }) => {
        const {
          heapSnapshotsOnSignal,
          loadConfig,
          loadApiKeys,
          reloadApiKeysOnHangUp,
          createLogger,
          routeConsoleTo,
          serve,
        } = await serverModules();
        const logger = createLogger(
          options.logLevel,
          await logDestination(options.logFormat ?? defaultLogFormat()),
        );
        heapSnapshotsOnSignal(process.env, logger);
        // What libraries print with console.* becomes JSON log lines too.
        routeConsoleTo(logger);
        try {
          const readKeys = () =>
            loadApiKeys({ env: process.env.HARNESS_API_KEYS, file: options.apiKeys });
          const apiKeys = readKeys();
          const running = await serve({
            apiKeys,
            host: options.host,
            port: options.port,
            grpcPort: options.grpcPort,
            dataDir: options.data,
            databaseUrl: options.databaseUrl,
            publicUrl: options.publicUrl,
            instanceName: options.instanceName,
            config: loadConfig(options.config),
            logger,
            metricsPublic: options.metricsPublic ?? false,
            metricsToken: options.metricsToken,
          });
          let signals = 0;
          const onSignal = (signal: NodeJS.Signals) => {
            if (++signals > 1) process.exit(130);
            logger.info({ signal }, 'signal received');
            running.stop().then(
              () => process.exit(0),
              (error: unknown) => {
                logger.error({ err: error }, 'shutdown failed');
                process.exit(1);
              },
            );
          };
          process.on('SIGINT', onSignal);
          process.on('SIGTERM', onSignal);
          // Only with a key file: there is nothing else to read again.
          if (apiKeys && options.apiKeys !== undefined) {
            reloadApiKeysOnHangUp({ keys: apiKeys, load: readKeys, logger });
          }
        } catch (error) {
          logger.fatal(
            { err: error instanceof Error ? error.message : String(error) },
            'cannot start',
          );
          process.exitCode = 1;
        }
      },
    );
}
