import type SqliteDatabase from 'better-sqlite3';

type Statement = ReturnType<SqliteDatabase.Database['prepare']>;

/**
 * What kysely's SQLite dialect needs of a database, with prepared statements
 * kept and reused: kysely prepares every query anew, which costs more than
 * running it. Kysely serialises queries on its one connection, and better-sqlite3
 * statements run synchronously, so sharing them is safe.
 */
export function withStatementCache(database: SqliteDatabase.Database, capacity = 512) {
  const statements = new Map<string, Statement>();
  return {
    prepare(sql: string): Statement {
      let statement = statements.get(sql);
      if (statement) {
        // Most recently used last, so the first entry is the one to evict.
        statements.delete(sql);
      } else {
        statement = database.prepare(sql);
        if (statements.size >= capacity) statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
      return statement;
    },
    close(): void {
      statements.clear();
      database.close();
    },
  };
}
