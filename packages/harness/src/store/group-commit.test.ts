import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, sqliteConnectionOf, type HarnessDatabase } from './database.js';
import { GroupCommit } from './group-commit.js';

let database: HarnessDatabase;
let raw: SqliteDatabase.Database;
let file: string;
let commits: GroupCommit;

// One database for the file (opening one runs the migrations); fresh tables for each test.
beforeAll(async () => {
  file = path.join(mkdtempSync(path.join(os.tmpdir(), 'a2a-group-commit-')), 'tasks.db');
  database = await openDatabase(`sqlite:${file}`);
  raw = sqliteConnectionOf(database.db)!;
});
afterAll(() => database.close());
beforeEach(() => {
  raw.exec('drop table if exists notes; drop table if exists other_writes');
  raw.exec('create table notes (text text primary key)');
  raw.exec('create table other_writes (text text)');
  commits = new GroupCommit(raw, (run) => database.db.connection().execute(async () => run()));
});

const insert = (text: string) => () => {
  raw.prepare('insert into notes (text) values (?)').run(text);
  return text;
};
/**
 * A turn with several writes, as under load: the group it leaves holds more
 * than one write, so the writes of the next turns all gather.
 */
const busyTurn = () =>
  Promise.all(
    [1, 2, 3].map(() =>
      commits.write(() => raw.prepare('insert into other_writes (text) values (?)').run('busy')),
    ),
  );
/** What another connection to the file sees: only what is committed. */
const committed = () => {
  const other = new SqliteDatabase(file, { readonly: true });
  try {
    return other.prepare('select text from notes order by text').pluck().all() as string[];
  } finally {
    other.close();
  }
};

describe('group commit', () => {
  it('a lone write on a quiet connection is committed before the loop turns', async () => {
    const write = commits.write(insert('alone'));
    // Another connection sees it already: it did not wait for others to join it.
    expect(committed()).toEqual(['alone']);
    expect(await write).toBe('alone');
  });

  it('the writes asked for after a lone one in the same turn gather into one transaction', async () => {
    const seen: number[] = [];
    const writes = ['a', 'b', 'c'].map((text) =>
      commits.write(() => {
        seen.push(raw.prepare('select count(*) from notes').pluck().get() as number);
        return insert(text)();
      }),
    );
    expect(committed()).toEqual(['a']);
    expect(await Promise.all(writes)).toEqual(['a', 'b', 'c']);
    expect(committed()).toEqual(['a', 'b', 'c']);
    expect(seen).toEqual([0, 1, 2]);
  });

  it('under load every write waits for its group, and a quiet turn brings back lone commits', async () => {
    await busyTurn();
    const gathered = ['a', 'b'].map((text) => commits.write(insert(text)));
    expect(committed()).toEqual([]);
    await Promise.all(gathered);
    expect(committed()).toEqual(['a', 'b']);
    // The last group held two writes, so a single one still waits for its turn...
    const single = commits.write(insert('c'));
    expect(committed()).toEqual(['a', 'b']);
    await single;
    // ...and that group held one: the connection is quiet again.
    const lone = commits.write(insert('d'));
    expect(committed()).toEqual(['a', 'b', 'c', 'd']);
    await lone;
  });

  it('a write a request waits on is not held for the groups other writes form, and takes them along', async () => {
    // Background writes (a streaming turn's) arrive in groups: the connection is not quiet for them.
    await busyTurn();
    const background = ['t1', 't2'].map((text) => commits.write(insert(text)));
    expect(committed()).toEqual([]);
    const reply = commits.write(insert('reply'), { answersRequest: true });
    // Committed before the loop turns, with the background writes gathered so far.
    expect(committed()).toEqual(['reply', 't1', 't2']);
    expect(await reply).toBe('reply');
    await Promise.all(background);
  });

  it('writes many requests wait on in one turn still gather, and a lone one commits at once again after', async () => {
    const replies = ['a', 'b', 'c'].map((text) =>
      commits.write(insert(text), { answersRequest: true }),
    );
    // The first commits at once; the two asked for after it in that turn gather.
    expect(committed()).toEqual(['a']);
    await Promise.all(replies);
    // That group held two: the next waits for its group...
    const next = commits.write(insert('d'), { answersRequest: true });
    expect(committed()).toEqual(['a', 'b', 'c']);
    await next;
    // ...which held one: quiet again.
    const lone = commits.write(insert('e'), { answersRequest: true });
    expect(committed()).toEqual(['a', 'b', 'c', 'd', 'e']);
    await lone;
  });

  it('writes asked for together under load share one transaction, and each is committed when its promise resolves', async () => {
    await busyTurn();
    const seen: number[] = [];
    const countInTransaction = () => {
      seen.push(raw.prepare('select count(*) from notes').pluck().get() as number);
    };
    const writes = ['a', 'b', 'c'].map((text) =>
      commits.write(() => {
        countInTransaction();
        return insert(text)();
      }),
    );
    // Nothing is written before the loop turns: the group is still gathering.
    expect(committed()).toEqual([]);
    expect(await Promise.all(writes)).toEqual(['a', 'b', 'c']);
    expect(committed()).toEqual(['a', 'b', 'c']);
    // One after another in the same transaction: each saw the ones before it.
    expect(seen).toEqual([0, 1, 2]);
  });

  it('a write that throws takes back only its own changes; the others in its group are stored', async () => {
    const good = commits.write(insert('kept'));
    const bad = commits.write(() => {
      insert('taken back')();
      throw new Error('refused');
    });
    const duplicate = commits.write(insert('kept'));
    const after = commits.write(insert('also kept'));
    await expect(bad).rejects.toThrow('refused');
    await expect(duplicate).rejects.toThrow(/UNIQUE/);
    expect(await good).toBe('kept');
    expect(await after).toBe('also kept');
    expect(committed()).toEqual(['also kept', 'kept']);
  });

  it('runs each change once when none throws', async () => {
    const runs = new Map<string, number>();
    const counted = (text: string) => () => {
      runs.set(text, (runs.get(text) ?? 0) + 1);
      return insert(text)();
    };
    await Promise.all(['a', 'b', 'c'].map((text) => commits.write(counted(text))));
    expect([...runs.values()]).toEqual([1, 1, 1]);
    expect(committed()).toEqual(['a', 'b', 'c']);
  });

  it('when one throws, the group is applied again, each in a savepoint: the others are stored once', async () => {
    await busyTurn();
    const runs = new Map<string, number>();
    const counted = (text: string) => () => {
      runs.set(text, (runs.get(text) ?? 0) + 1);
      return insert(text)();
    };
    const first = commits.write(counted('first'));
    const bad = commits.write(() => {
      insert('taken back')();
      throw new Error('refused');
    });
    const last = commits.write(counted('last'));
    await expect(bad).rejects.toThrow('refused');
    expect([await first, await last]).toEqual(['first', 'last']);
    // The first ran before the throw and again; the last only after it.
    expect(Object.fromEntries(runs)).toEqual({ first: 2, last: 1 });
    expect(committed()).toEqual(['first', 'last']);
  });

  it('a change alone that throws takes back its writes and runs once', async () => {
    let runs = 0;
    const bad = commits.write(() => {
      runs += 1;
      insert('taken back')();
      throw new Error('refused');
    });
    await expect(bad).rejects.toThrow('refused');
    expect(runs).toBe(1);
    expect(committed()).toEqual([]);
  });

  it('waits for a transaction open on the connection, and is no part of it: its rollback keeps the group', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const rolledBack = database.db
      .transaction()
      .execute(async (trx) => {
        await sql`insert into notes (text) values ('rolled back')`.execute(trx);
        await held;
        throw new Error('roll back');
      })
      .catch((error: Error) => error.message);
    // The transaction is open now, with its write not committed.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(raw.inTransaction).toBe(true);
    let stored = false;
    const write = commits.write(insert('group')).then(() => (stored = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stored).toBe(false);
    release();
    expect(await rolledBack).toBe('roll back');
    await write;
    expect(committed()).toEqual(['group']);
  });
});
