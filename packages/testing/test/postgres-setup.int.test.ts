/**
 * The throwaway PostgreSQL cluster of a run starts when a file first asks for
 * it, not before, and stops with the run. Needs PostgreSQL's server binaries,
 * as the harness's integration files do.
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import type { TestProject } from 'vitest/node';
import setup from '../src/postgres-setup.js';
import { testPostgresUrl } from '../src/postgres-server.js';

// The setup's folders and the cluster's go to a temporary folder of this file's own.
const temporary = mkdtempSync(path.join(os.tmpdir(), 'a2a-pg-setup-'));
// The cluster runs as the postgres user when the tests run as root: it must reach its folder.
chmodSync(temporary, 0o755);
const ownTemporary = process.env.TMPDIR;
process.env.TMPDIR = temporary;
afterAll(() => {
  process.env.TMPDIR = ownTemporary;
  rmSync(temporary, { recursive: true, force: true });
});

/** What the global setup gives the run, as vitest would hand it to the files. */
async function startSetup(): Promise<{ folder: string; teardown: () => Promise<void> }> {
  const provided = new Map<string, unknown>();
  const project = { provide: (key: string, value: unknown) => provided.set(key, value) };
  const teardown = await setup(project as unknown as TestProject);
  return { folder: provided.get('postgresFolder') as string, teardown };
}

/** The clusters' folders, wherever the setup put them under the temporary folder. */
const clusters = () =>
  readdirSync(temporary, { recursive: true, encoding: 'utf8' }).filter((name) =>
    path.basename(name).startsWith('a2a-harness-pg-'),
  );

async function query(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one;
  } finally {
    await client.end();
  }
}

it('starts no cluster for a run whose files never ask for one', async () => {
  const { teardown } = await startSetup();
  await sleep(500);
  expect(clusters()).toEqual([]);
  await teardown();
  expect(readdirSync(temporary)).toEqual([]);
});

it('starts one cluster when files ask, for all of them, and stops it with the run', async () => {
  const { folder, teardown } = await startSetup();
  expect(clusters()).toEqual([]);
  const urls = await Promise.all([testPostgresUrl(folder), testPostgresUrl(folder)]);
  expect(new Set(urls).size).toBe(1);
  expect(clusters()).toHaveLength(1);
  expect(await query(urls[0]!)).toBe(1);
  expect(await testPostgresUrl(folder)).toBe(urls[0]);
  await teardown();
  await expect(query(urls[0]!)).rejects.toThrow();
  expect(readdirSync(temporary)).toEqual([]);
}, 180_000);
