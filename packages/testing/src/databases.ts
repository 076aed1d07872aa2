import pg from 'pg';
import { testPostgresUrl } from './postgres-server.js';

/**
 * A database of its own on the test PostgreSQL server, for tests whose
 * instances look at every task in the database (turn recovery does).
 */
export async function freshPostgresDatabase(
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const server = new URL(await testPostgresUrl());
  const name = `${prefix}_${crypto.randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: server.toString() });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
