/**
 * Vitest global setup: a throwaway PostgreSQL cluster for the tests.
 * `A2A_TEST_DATABASE_URL` points the tests at an existing server instead.
 */
import type { TestProject } from 'vitest/node';
import type {} from './postgres-context.js';
import { startThrowawayPostgres } from './throwaway-postgres.js';

export default async function setup(project: TestProject): Promise<() => void> {
  if (process.env.A2A_TEST_DATABASE_URL) {
    project.provide('postgresUrl', process.env.A2A_TEST_DATABASE_URL);
    return () => undefined;
  }
  const postgres = await startThrowawayPostgres();
  project.provide('postgresUrl', postgres.url);
  return () => postgres.stop();
}
