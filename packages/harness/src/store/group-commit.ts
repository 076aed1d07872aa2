import type SqliteDatabase from 'better-sqlite3';

interface Outcome {
  ok: boolean;
  value: unknown;
}

interface Pending {
  change: () => unknown;
  answersRequest: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit on one SQLite connection: the synchronous changes asked for
 * while the event loop is busy are applied together, at the next turn of the
 * loop, in one transaction. On a quiet connection (its last group held at most
 * one write) the first write of a turn commits at once instead: one call at a
 * time, nothing would join it, and its answer need not wait for the loop to
 * turn. Writes asked for after it in that turn gather as before, and under load
 * groups hold several writes, so every write waits for its group.
 *
 * A write that a request's answer waits on (a command's: `answersRequest`) is
 * judged by the writes of its own kind only: the groups that other writes form
 * (a streaming turn's messages and endings, which no answer waits on) never
 * hold it. While the last group held at most one such write, the first of a
 * turn commits at once, with whatever others have gathered so far; under a load
 * of requests they gather as every write does.
 *
 * Should one change throw, the transaction is taken back and the group applied
 * again with each change in a savepoint of its own, so that one that throws
 * takes back only its own writes (savepoints on every change cost a tenth of a
 * command's write). A change may thus run twice: it must do nothing outside the
 * database. Each promise settles only once the transaction is committed, so
 * what a caller is told is stored is stored.
 *
 * Another transaction may be open on the connection (kysely's, awaiting between
 * statements): `exclusive` then runs the group once the connection is free.
 */
export class GroupCommit {
  private pending: Pending[] = [];
  private scheduled = false;
  /** The last group held at most one write: the next may commit at once (`write`). */
  private quietLately = true;
  /** The same, counting only the writes requests wait on (`answersRequest`). */
  private fewAnswersLately = true;
  /** A write a request waits on has committed at once in this turn: the next ones gather. */
  private answeredThisTurn = false;
  /** While above 0, groups wait (`quiet`). */
  private held = 0;
  private readonly savepoint;
  /** The group's changes one after another: a throw takes back all of them. */
  private readonly together;
  /** Each change in a savepoint of its own: a throw takes back only its own. */
  private readonly oneByOne;

  constructor(
    private readonly database: SqliteDatabase.Database,
    private readonly exclusive: <T>(run: () => T | Promise<T>) => Promise<T>,
    /** False commits each change at once, alone: for comparison. */
    private readonly grouped = true,
  ) {
    this.savepoint = database.transaction((change: () => unknown) => change());
    this.together = database.transaction((group: Pending[]): Outcome[] =>
      group.map((item) => ({ ok: true, value: item.change() })),
    );
    this.oneByOne = database.transaction((group: Pending[]): Outcome[] =>
      group.map((item) => {
        try {
          return { ok: true, value: this.savepoint(item.change) };
        } catch (error) {
          return { ok: false, value: error };
        }
      }),
    );
  }

  write<T>(change: () => T, options: { answersRequest?: boolean } = {}): Promise<T> {
    const answersRequest = options.answersRequest ?? false;
    return new Promise<T>((resolve, reject) => {
      this.pending.push({
        change,
        answersRequest,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      if (!this.grouped) {
        this.flush();
        return;
      }
      const scheduledBefore = this.scheduled;
      if (!this.scheduled) {
        // Writes asked for after this one in the same turn gather for the next.
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
      const free = this.held === 0 && !this.database.inTransaction;
      if (answersRequest) {
        if (this.fewAnswersLately && !this.answeredThisTurn && free) {
          this.answeredThisTurn = true;
          this.commitPending();
        }
      } else if (!scheduledBefore && this.quietLately && free) {
        this.commitPending();
      }
    });
  }

  /**
   * Runs `run` while nothing is written on the connection: groups gather
   * meanwhile, and kysely's connection is held. The event loop goes on.
   */
  async quiet(run: () => Promise<void>): Promise<void> {
    this.held += 1;
    try {
      await this.exclusive(run);
    } finally {
      this.held -= 1;
      if (this.held === 0 && this.pending.length > 0 && !this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    }
  }

  private flush(): void {
    this.scheduled = false;
    this.answeredThisTurn = false;
    if (this.held > 0) return;
    this.quietLately = this.pending.length <= 1;
    this.fewAnswersLately = this.pending.filter((item) => item.answersRequest).length <= 1;
    this.commitPending();
  }

  private commitPending(): void {
    const group = this.pending;
    this.pending = [];
    if (group.length === 0) return;
    if (!this.database.inTransaction) {
      this.commit(group);
      return;
    }
    this.exclusive(() => this.commit(group)).catch((error: unknown) => {
      for (const item of group) item.reject(error);
    });
  }

  private commit(group: Pending[]): void {
    let outcomes: Outcome[];
    try {
      outcomes = this.together(group);
    } catch (error) {
      if (group.length === 1) {
        group[0]!.reject(error);
        return;
      }
      // One of them threw (or the commit failed): all again, each in a savepoint of its own.
      try {
        outcomes = this.oneByOne(group);
      } catch (error) {
        for (const item of group) item.reject(error);
        return;
      }
    }
    group.forEach((item, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.value);
    });
  }
}
