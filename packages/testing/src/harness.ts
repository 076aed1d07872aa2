import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { pino, type Logger } from 'pino';
import { serve, type ApiKeys, type HarnessConfig, type RunningHarness } from 'a2a-harness';
import { bundledStreamWorker } from './harness-cli.js';

export interface TestHarness extends RunningHarness {
  dataDir: string;
}

/** The harness on a free loopback port, with a fresh data directory unless one is given. */
export async function startHarness(
  options: {
    config?: HarnessConfig;
    env?: NodeJS.ProcessEnv;
    dataDir?: string;
    databaseUrl?: string;
    publicUrl?: string;
    apiKeys?: ApiKeys;
    host?: string;
    /** A fixed port (restarting on the same one); a free one by default. */
    port?: number;
    logger?: Logger;
    metricsPublic?: boolean;
    metricsToken?: string;
    /** The web chat's build to serve at `/ui`; the installed one by default. */
    webUiDir?: string;
  } = {},
): Promise<TestHarness> {
  // In the run's folder: a harness restarted on the same data within the run still finds it.
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-data-'));
  const running = await serve({
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    dataDir,
    databaseUrl: options.databaseUrl,
    publicUrl: options.publicUrl,
    config: options.config ?? {},
    logger: options.logger ?? pino({ level: 'silent' }),
    apiKeys: options.apiKeys,
    metricsPublic: options.metricsPublic,
    metricsToken: options.metricsToken,
    webUiDir: options.webUiDir,
    env: options.env ?? {},
    streamWorker: bundledStreamWorker(),
  });
  return { ...running, dataDir };
}
