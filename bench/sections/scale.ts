import { writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { Endpoint, sendCall, throughput, type Call } from '../lib/load.js';
import { startServer, type ServerProcess } from '../lib/servers.js';
import { figure, type Figure } from '../lib/stats.js';
import { scratchDir } from '../lib/scratch.js';

export interface ScaleResult {
  instances: number;
  /** `/help` calls per second, all instances together. */
  commands: Figure;
  /** Ordinary messages per second, each a model turn on a new task. */
  turns: Figure;
  errors: number;
}

/** Calls spread over the endpoints round-robin, as a load balancer without sticky sessions would. */
function roundRobin(calls: Call[]): Call {
  let next = 0;
  return () => calls[next++ % calls.length]!();
}

async function freshDatabase(serverUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Command and turn throughput of 1, 2, ... instances sharing one PostgreSQL,
 * each set on a database of its own, measured in rounds.
 */
export async function scaleOut(
  serverUrl: string,
  counts: number[],
  options: { rounds: number; secondsEach: number; inFlight: number },
  log: (message: string) => void,
): Promise<ScaleResult[]> {
  const results: ScaleResult[] = [];
  const configDir = scratchDir('scale');
  const config = path.join(configDir, 'harness.json');
  writeFileSync(config, JSON.stringify({ offline: { latencyMs: 0 } }));
  for (const count of counts) {
    const url = await freshDatabase(serverUrl, `a2a_bench_scale_${count}`);
    const dataDir = scratchDir('scale-data');
    log(`scale: ${count} instance${count === 1 ? '' : 's'} on one PostgreSQL`);
    const servers: ServerProcess[] = [];
    try {
      // One after another: instances starting together contend for the schema lock anyway.
      for (let i = 0; i < count; i++) {
        servers.push(
          await startServer(`scale-${count}-${i}`, 'packages/harness/src/cli/main.ts', [
            'serve',
            '--port',
            '0',
            '--data',
            dataDir,
            '--config',
            config,
            '--database-url',
            url,
            '--log-level',
            'warn',
          ]),
        );
      }
      const endpoints = servers.map((s) => new Endpoint(`${s.url}/a2a/jsonrpc`, options.inFlight));
      const command = roundRobin(endpoints.map((e) => sendCall(e, '/help')));
      const turn = roundRobin(endpoints.map((e) => sendCall(e, 'hello')));
      await throughput(command, options.inFlight, 1000);
      await throughput(turn, options.inFlight, 1000);
      const commands: number[] = [];
      const turns: number[] = [];
      let errors = 0;
      const ms = options.secondsEach * 1000;
      for (let round = 0; round < options.rounds; round++) {
        const c = await throughput(command, options.inFlight, ms);
        const t = await throughput(turn, options.inFlight, ms);
        commands.push(c.perSecond);
        turns.push(t.perSecond);
        errors += c.errors + t.errors;
      }
      for (const e of endpoints) e.close();
      results.push({ instances: count, commands: figure(commands), turns: figure(turns), errors });
    } finally {
      await Promise.all(servers.map((s) => s.stop().catch(() => undefined)));
    }
  }
  return results;
}
