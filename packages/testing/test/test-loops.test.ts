/**
 * The two loops of the README hold: `npm run test:unit` runs no file that
 * starts a server process, a browser or PostgreSQL, and PostgreSQL can start
 * only where the files that use it run (postgres-setup.int.test.ts shows that
 * it then starts only when one asks). Read from the projects vitest resolves.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVitest, type Vitest } from 'vitest/node';

const repository = fileURLToPath(new URL('../../..', import.meta.url));

/** What `npm run test:unit` leaves out, besides the projects named integration:*. */
const INTEGRATION_FILE = /\.(int|e2e)\.test\.tsx?$/;

/** An import statement of one of these modules (not a mention inside a string). */
const importOf = (modules: string) =>
  new RegExp(`^\\s*(import|export)\\b[^;]*?\\bfrom\\s+['"](${modules})['"]`, 'm');

/** Imports that start a process, a browser, a whole harness or PostgreSQL. */
const NEEDS_MORE_THAN_A_PROCESS = importOf(
  'node:child_process|playwright-core|a2a-testing/(harness|harness-cli|process|chat-terminal|stores|databases|throwaway-postgres|packing|run-packs|test-bins|acp-bridge)',
);

const USES_POSTGRES = importOf('a2a-testing/(stores|databases)');

interface ProjectFiles {
  name: string;
  globalSetup: string[];
  files: string[];
}

let vitest: Vitest;
let projects: ProjectFiles[];

beforeAll(async () => {
  vitest = await createVitest('test', {
    root: repository,
    config: path.join(repository, 'vitest.config.ts'),
    watch: false,
  });
  projects = await Promise.all(
    vitest.projects.map(async (project) => ({
      name: project.name,
      globalSetup: [project.config.globalSetup ?? []].flat(),
      files: (await project.globTestFiles()).testFiles,
    })),
  );
});

afterAll(async () => {
  await vitest?.close();
});

const source = (file: string) => readFileSync(file, 'utf8');
const relative = (file: string) => path.relative(repository, file);
const isUnit = (project: ProjectFiles, file: string) =>
  !project.name.startsWith('integration:') && !INTEGRATION_FILE.test(file);

describe('the unit loop', () => {
  it('holds no file that starts a server process, a browser, a whole harness or PostgreSQL', () => {
    const offenders = projects.flatMap((project) =>
      project.files
        .filter((file) => isUnit(project, file) && NEEDS_MORE_THAN_A_PROCESS.test(source(file)))
        .map(relative),
    );
    expect(offenders).toEqual([]);
  });

  it('has no global setup in any of its projects: nothing starts before its first file', () => {
    const withSetup = projects
      .filter((project) => project.files.some((file) => isUnit(project, file)))
      .filter((project) => project.globalSetup.length > 0)
      .map((project) => project.name);
    expect(withSetup).toEqual([]);
  });
});

describe('PostgreSQL', () => {
  it('can start in one project only, the one of every file that uses it', () => {
    const starting = projects.filter((project) =>
      project.globalSetup.some((file) => file.endsWith('postgres-setup.ts')),
    );
    expect(starting.map((project) => project.name)).toEqual(['integration:harness']);
    const [postgres] = starting;
    expect(postgres!.files.filter((file) => USES_POSTGRES.test(source(file)))).not.toEqual([]);
    const elsewhere = projects
      .filter((project) => project !== postgres)
      .flatMap((project) => project.files.filter((file) => USES_POSTGRES.test(source(file))));
    expect(elsewhere.map(relative)).toEqual([]);
  });
});

it('runs every test file in exactly one project', () => {
  const all = projects.flatMap((project) => project.files.map(relative));
  expect(all.length).toBeGreaterThan(100);
  expect(all.filter((file, index) => all.indexOf(file) !== index)).toEqual([]);
});
