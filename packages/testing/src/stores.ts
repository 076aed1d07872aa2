import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import type {} from './postgres-context.js';
import { openDatabase, type HarnessDatabase } from 'a2a-harness';

export type StoreKind = 'sqlite' | 'postgres';
export const storeKinds: StoreKind[] = ['sqlite', 'postgres'];

/** A fresh SQLite file, or the test PostgreSQL server (tasks use fresh UUIDs, so tests share it). */
export function testDatabaseUrl(kind: StoreKind): string {
  if (kind === 'postgres') return inject('postgresUrl');
  return `sqlite:${path.join(mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-')), 'tasks.db')}`;
}

export async function openTestDatabase(
  kind: StoreKind,
  url = testDatabaseUrl(kind),
): Promise<HarnessDatabase> {
  return openDatabase(url);
}
