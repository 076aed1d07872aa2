/**
 * The order `npm test` starts its files in: the projects with long files
 * first, so that two workers finish together, and each project's files
 * together, so that a worker that shares modules between files keeps them. Read from the sequencer the
 * root configuration names, on the files vitest resolves.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVitest, version, type TestSpecification, type Vitest } from 'vitest/node';

const repository = fileURLToPath(new URL('../../..', import.meta.url));
const config = path.join(repository, 'vitest.config.ts');

/** Files that start a process, a browser or a build, and property tests: tens of seconds each. */
const LONG_KIND = /\.(int|e2e|property)\.test\.tsx?$/;

const temporary = mkdtempSync(path.join(os.tmpdir(), 'a2a-schedule-'));
/** Vitest's cache of timings, empty at first as in a clean clone. */
const cacheDir = path.join(temporary, 'cache');
const opened: Vitest[] = [];
let cleanOrder: string[];

beforeAll(async () => {
  cleanOrder = await startOrder();
});

afterAll(async () => {
  await Promise.all(opened.map((vitest) => vitest.close()));
  rmSync(temporary, { recursive: true, force: true });
});

/** The run's files in the order the configured sequencer starts them, with the timings in `cacheDir`. */
async function startOrder(): Promise<string[]> {
  const vitest = await createVitest(
    'test',
    { root: repository, config, watch: false },
    { cacheDir },
  );
  opened.push(vitest);
  const Sequencer = vitest.config.sequence.sequencer;
  const sorted = await new Sequencer(vitest).sort(await vitest.globTestSpecifications());
  return sorted.map(name);
}

const name = (spec: TestSpecification) =>
  `${spec.project.name}:${path.relative(repository, spec.moduleId)}`;
const projectOf = (key: string) => key.slice(0, key.lastIndexOf(':'));
const fileOf = (key: string) => key.slice(key.lastIndexOf(':') + 1);
const isLong = (key: string) =>
  projectOf(key).startsWith('integration:') || LONG_KIND.test(fileOf(key));

/** Project names in order, one entry per run of consecutive files of one project. */
function projectRuns(keys: string[]): string[] {
  return keys.map(projectOf).filter((project, index, all) => project !== all[index - 1]);
}

describe('from a clean clone, with no timings of an earlier run', () => {
  it('starts every project with a long kind of file before any other, the soak among them', async () => {
    const order = cleanOrder;
    expect(order.filter((key) => projectOf(key) === 'integration:bench')).not.toEqual([]);
    const long = new Set(order.filter(isLong).map(projectOf));
    const firstOther = order.findIndex((key) => !long.has(projectOf(key)));
    expect(firstOther).toBeGreaterThan(0);
    expect(order.slice(firstOther).filter((key) => long.has(projectOf(key)))).toEqual([]);
  });

  it("keeps each project's files together, its long kinds first", async () => {
    const order = cleanOrder;
    const runs = projectRuns(order);
    expect(runs).toEqual([...new Set(runs)]);
    for (const project of runs) {
      const files = order.filter((key) => projectOf(key) === project);
      const firstShort = files.findIndex((key) => !isLong(key));
      if (firstShort !== -1) expect(files.slice(firstShort).filter(isLong)).toEqual([]);
    }
  });
});

describe('with the timings vitest kept from an earlier run', () => {
  it('starts a short kind of file first when it took longest last time', async () => {
    const unitFile = cleanOrder.findLast((key) => !isLong(key) && projectOf(key) === 'harness');
    expect(unitFile).toBeDefined();
    const timings = cleanOrder.map((key) => [
      key,
      { duration: key === unitFile ? 600_000 : 1_000, failed: false },
    ]);
    const cachePath = opened[0]?.cache.results.getCachePath();
    expect(cachePath).toBeTruthy();
    mkdirSync(path.dirname(cachePath!), { recursive: true });
    writeFileSync(cachePath!, JSON.stringify({ version, results: timings }));

    const order = await startOrder();
    expect(order[0]).toBe(unitFile);
  });
});
