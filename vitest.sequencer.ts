import { statSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Starts the projects with long files first, so that a run does not end with
 * one worker on a long file while the other has nothing left to do. Vitest's
 * own order runs the projects one after another by name, which leaves the web
 * chat's browser files near the end.
 *
 * A project's files stay together, all of them: a worker that shares modules
 * between files (`isolate: false`) is kept only while the next file in the
 * queue is of its project, and each new worker imports the project's modules
 * again (about 3 s of CPU for the harness's). So the projects are taken in
 * two tiers, those with a long file then the others, within a tier the project
 * with the most work first, and its files longest first.
 *
 * How long a file takes comes from vitest's cache of the last run when it
 * has one. A clean clone (CI) has none: there the estimate is by kind, since
 * the files that start something beyond the test process and the property
 * tests are the ones that take tens of seconds.
 */
export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const estimates = new Map(files.map((file) => [file, this.estimate(file)]));
    const estimate = (file: TestSpecification) => estimates.get(file) ?? 0;
    const longProjects = new Set(
      files.filter((file) => estimate(file) >= LONG_FILE_MS).map((file) => file.project.name),
    );
    const tier = (file: TestSpecification) => (longProjects.has(file.project.name) ? 0 : 1);
    const workOf = new Map<string, number>();
    for (const file of files) {
      const key = `${tier(file)}:${file.project.name}`;
      workOf.set(key, (workOf.get(key) ?? 0) + estimate(file));
    }
    const work = (file: TestSpecification) => workOf.get(`${tier(file)}:${file.project.name}`) ?? 0;
    return [...files].sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        tier(a) - tier(b) ||
        work(b) - work(a) ||
        a.project.name.localeCompare(b.project.name) ||
        estimate(b) - estimate(a) ||
        a.moduleId.localeCompare(b.moduleId),
    );
  }

  /** Milliseconds: the last run's, or a guess by kind with the larger file first. */
  private estimate(file: TestSpecification): number {
    const key = `${file.project.name}:${path.relative(this.ctx.config.root, file.moduleId)}`;
    const cached = this.ctx.cache.getFileTestResults(key);
    if (cached && !cached.failed) return cached.duration;
    const bytes = statSync(file.moduleId, { throwIfNoEntry: false })?.size ?? 0;
    return guessByKind(file) + bytes / 1000;
  }
}

/** A file at least this long starts in the first tier. */
const LONG_FILE_MS = 10_000;

const PROCESS_OR_BROWSER_FILE = /\.(int|e2e)\.test\.tsx?$/;
const PROPERTY_FILE = /\.property\.test\.tsx?$/;

function guessByKind(file: TestSpecification): number {
  const startsMore =
    file.project.name.startsWith('integration:') || PROCESS_OR_BROWSER_FILE.test(file.moduleId);
  if (startsMore) return 30_000;
  if (PROPERTY_FILE.test(file.moduleId)) return LONG_FILE_MS;
  return 0;
}
