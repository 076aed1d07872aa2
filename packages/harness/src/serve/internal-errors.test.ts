import type { A2ARequestHandler } from '@a2a-js/sdk/server';
import SqliteDatabase from 'better-sqlite3';
import { logLines } from 'a2a-testing/log-lines';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { STORAGE_FULL_MESSAGE, isStorageFull } from '../store/index.js';
import { hidingInternalErrors, INTERNAL_ERROR_MESSAGE } from './internal-errors.js';

/** The error SQLite gives a write that finds no room: a database capped at a few pages. */
function fullDatabaseError(): Error {
  const database = new SqliteDatabase(':memory:');
  try {
    database.pragma('max_page_count = 3');
    database.exec('create table rows (body text)');
    const insert = database.prepare('insert into rows (body) values (?)');
    for (;;) insert.run('x'.repeat(4096));
  } catch (error) {
    return error as Error;
  } finally {
    database.close();
  }
}

/** A request handler whose every call fails with `error`, behind the harness's wrapper. */
function failingWith(error: Error) {
  const { stream, lines } = logLines();
  const logger = pino(stream);
  const inner = {
    getTask: () => Promise.reject(error),
  } as unknown as A2ARequestHandler;
  const handler = hidingInternalErrors(inner, logger);
  return { getTask: () => handler.getTask({ id: 't' } as never, undefined as never), lines };
}

describe('a write the storage has no room for', () => {
  it("is SQLite's own SQLITE_FULL", () => {
    const error = fullDatabaseError();
    expect((error as { code?: string }).code).toBe('SQLITE_FULL');
    expect(isStorageFull(error)).toBe(true);
  });

  it('tells the client the storage is full and nothing was stored, not "internal error"', async () => {
    const { getTask, lines } = failingWith(fullDatabaseError());
    await expect(getTask()).rejects.toThrow(STORAGE_FULL_MESSAGE);
    const logged = lines.find((line) => line.msg === 'storage full: the write was refused');
    expect(logged?.level).toBe(50);
    expect(logged?.err).toMatch(/database or disk is full/);
  });

  it("is PostgreSQL's disk_full too, and found through a wrapping error's cause", () => {
    const diskFull = Object.assign(new Error('could not extend file'), { code: '53100' });
    expect(isStorageFull(diskFull)).toBe(true);
    expect(isStorageFull(new Error('a turn could not end', { cause: fullDatabaseError() }))).toBe(
      true,
    );
  });

  it('leaves other failures as internal errors', async () => {
    expect(isStorageFull(Object.assign(new Error('locked'), { code: 'SQLITE_BUSY' }))).toBe(false);
    const { getTask } = failingWith(new Error('driver has already been destroyed'));
    await expect(getTask()).rejects.toThrow(INTERNAL_ERROR_MESSAGE);
  });
});
