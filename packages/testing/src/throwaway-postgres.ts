/**
 * A throwaway PostgreSQL cluster on a free loopback port, made from the server
 * binaries Debian's postgresql package installs (`.ci/run` installs them).
 * For the tests' global setup and for the benchmark.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface ThrowawayPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  /** `pg_ctl restart -m fast`: every connection is ended, and the server is back when this settles. */
  restart(): Promise<void>;
  /** `pg_ctl stop -m fast`, keeping the files: the database is down until `resume`. */
  halt(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

/** A cluster whose start is still under way: the URL is known before it accepts connections. */
export interface LaunchingPostgres {
  url: string;
  /** Settles when the server accepts connections, or rejects saying why it could not start. */
  ready: Promise<void>;
  /** Waits for the start to settle, then stops the server and removes its files. */
  stop(): Promise<void>;
  restart(): Promise<void>;
  halt(): Promise<void>;
  resume(): Promise<void>;
}

function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = path.join(root, version, 'bin');
    if (existsSync(path.join(bin, 'initdb'))) return bin;
  }
  return undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/**
 * Starts a cluster without waiting for it: the port is chosen at once, initdb
 * and the server start run in the background. Nothing here blocks the event
 * loop, so a test runner can go on with the files that need no database.
 */
export async function launchThrowawayPostgres(): Promise<LaunchingPostgres> {
  const bin = postgresBin();
  if (!bin) {
    throw new Error(
      'PostgreSQL server binaries not found under /usr/lib/postgresql: install them (apt-get install -y postgresql, as .ci/run does) or set A2A_TEST_DATABASE_URL',
    );
  }
  const port = await freePort();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'a2a-harness-pg-'));
  const data = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  // initdb refuses to run as root; the cluster then belongs to the postgres user.
  const postgres = (command: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', command, ...args]) : run(command, args);
  const pgCtl = path.join(bin, 'pg_ctl');
  // A test cluster need not survive a crash of the machine: no flushes, no full-page images.
  const durability = '-c fsync=off -c synchronous_commit=off -c full_page_writes=off';
  const serverOptions = [
    '-D',
    data,
    '-l',
    path.join(dir, 'server.log'),
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 ${durability} -c max_connections=200`,
    '-w',
  ];

  const start = async () => {
    if (asRoot) {
      const [uid, gid] = await Promise.all([
        run('id', ['-u', 'postgres']),
        run('id', ['-g', 'postgres']),
      ]);
      await chown(dir, Number(uid.stdout), Number(gid.stdout));
    }
    await postgres(path.join(bin, 'initdb'), [
      '-D',
      data,
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--no-sync',
    ]);
    await postgres(pgCtl, [...serverOptions, 'start']);
  };
  const ready = start();
  // A start that fails is reported by whoever awaits `ready`; this keeps Node quiet until then.
  ready.catch(() => undefined);

  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    ready,
    async restart() {
      await postgres(pgCtl, [...serverOptions, '-m', 'fast', 'restart']);
    },
    async halt() {
      await postgres(pgCtl, ['-D', data, '-m', 'fast', '-w', 'stop']);
    },
    async resume() {
      await postgres(pgCtl, [...serverOptions, 'start']);
    },
    async stop() {
      await ready.catch(() => undefined);
      await postgres(pgCtl, ['-D', data, '-m', 'immediate', 'stop']).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Starts a cluster and waits until it accepts connections. */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const launching = await launchThrowawayPostgres();
  try {
    await launching.ready;
  } catch (error) {
    await launching.stop();
    throw error;
  }
  const { url, restart, halt, resume, stop } = launching;
  return { url, restart, halt, resume, stop };
}
