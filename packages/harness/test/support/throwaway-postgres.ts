/**
 * A throwaway PostgreSQL cluster on a free loopback port, made from the server
 * binaries Debian's postgresql package installs (`.ci/run` installs them).
 * For the tests' global setup and for the benchmark.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, chownSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface ThrowawayPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  /** `pg_ctl restart -m fast`: every connection is ended, and the server is back when this returns. */
  restart(): void;
  /** `pg_ctl stop -m fast`, keeping the files: the database is down until `resume`. */
  halt(): void;
  resume(): void;
  stop(): void;
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

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const bin = postgresBin();
  if (!bin) {
    throw new Error(
      'PostgreSQL server binaries not found under /usr/lib/postgresql: install them (apt-get install -y postgresql, as .ci/run does) or set A2A_TEST_DATABASE_URL',
    );
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-pg-'));
  const asRoot = process.getuid?.() === 0;
  // initdb refuses to run as root; the cluster then belongs to the postgres user.
  const run = (command: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe' })
      : execFileSync(command, args, { stdio: 'pipe' });
  if (asRoot)
    chownSync(
      dir,
      Number(execFileSync('id', ['-u', 'postgres']).toString()),
      Number(execFileSync('id', ['-g', 'postgres']).toString()),
    );
  const data = path.join(dir, 'data');
  run(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
  const port = await freePort();
  const serverOptions = [
    '-D',
    data,
    '-l',
    path.join(dir, 'server.log'),
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
    '-w',
  ];
  run(path.join(bin, 'pg_ctl'), [...serverOptions, 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    restart() {
      run(path.join(bin, 'pg_ctl'), [...serverOptions, '-m', 'fast', 'restart']);
    },
    halt() {
      run(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
    },
    resume() {
      run(path.join(bin, 'pg_ctl'), [...serverOptions, 'start']);
    },
    stop() {
      spawnSync(
        asRoot ? 'runuser' : path.join(bin, 'pg_ctl'),
        asRoot
          ? [
              '-u',
              'postgres',
              '--',
              path.join(bin, 'pg_ctl'),
              '-D',
              data,
              '-m',
              'immediate',
              'stop',
            ]
          : ['-D', data, '-m', 'immediate', 'stop'],
        { stdio: 'pipe' },
      );
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
