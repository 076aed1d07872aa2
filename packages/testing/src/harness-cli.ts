/**
 * The harness CLI that tests start, built from source into one bundle per run.
 * Started through tsx, every harness paid for the loader and for compiling its
 * sources again (about 4 s of CPU a start against about 2 s for the bundle).
 * The bundle is built fresh each run, never reused, so it can't be stale.
 */
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

/** Set by the global setup (harness-cli-setup.ts) for the test processes: the bundle's main file. */
export const HARNESS_CLI_ENV = 'A2A_TEST_HARNESS_CLI';

const harnessDir = path.dirname(createRequire(import.meta.url).resolve('a2a-harness/package.json'));
const repositoryNodeModules = path.resolve(harnessDir, '../../node_modules');

export interface HarnessCliBundle {
  /** The CLI's entry, run with plain `node`. */
  main: string;
  remove(): void;
}

/**
 * Bundles `a2a-harness`'s CLI and the workspace packages it imports (read as
 * TypeScript through the `a2a-source` condition) into a temporary folder.
 * Packages from node_modules stay outside the bundle, imported by their
 * resolved paths, so native modules and workers load as they do installed.
 */
export async function buildHarnessCli(): Promise<HarnessCliBundle> {
  const outdir = mkdtempSync(path.join(os.tmpdir(), 'a2a-test-harness-cli-'));
  try {
    await esbuild.build({
      entryPoints: {
        main: path.join(harnessDir, 'src/cli/main.ts'),
        // Started as a worker from beside the code that starts it (worker-streams.ts).
        'stream-worker': path.join(harnessDir, 'src/models/stream-worker.ts'),
      },
      outdir,
      bundle: true,
      // Commands load what only they need with import(): chunks keep that lazy.
      splitting: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      conditions: ['a2a-source'],
      plugins: [nodeModulesByPath],
      logLevel: 'silent',
    });
    // Code that finds a package at run time (the web chat's build, the SQLite
    // driver for its worker) looks in node_modules beside itself.
    symlinkSync(repositoryNodeModules, path.join(outdir, 'node_modules'), 'dir');
  } catch (error) {
    rmSync(outdir, { recursive: true, force: true });
    throw new Error(`could not bundle the harness CLI: ${String(error)}`, { cause: error });
  }
  return {
    main: path.join(outdir, 'main.js'),
    remove: () => rmSync(outdir, { recursive: true, force: true }),
  };
}

const RESOLVING = Symbol('resolving');

/** Leaves a package from node_modules out of the bundle, imported by the path esbuild resolved. */
const nodeModulesByPath: esbuild.Plugin = {
  name: 'node-modules-by-path',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === RESOLVING) return undefined;
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: RESOLVING,
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      // The workspace's packages resolve to their sources: those are bundled.
      const inNodeModules = resolved.path.split(path.sep).includes('node_modules');
      return inNodeModules ? { path: resolved.path, external: true } : undefined;
    });
  },
};

/** The main file of the global setup's bundle, for callers that can't wait for a build. */
export function bundledHarnessCli(): string {
  const provided = process.env[HARNESS_CLI_ENV];
  if (!provided) {
    throw new Error(
      `${HARNESS_CLI_ENV} is not set: run this test in a project whose global setup is a2a-testing's harness-cli-setup.ts`,
    );
  }
  return provided;
}

/**
 * The model stream worker of the global setup's bundle, when there is one: an
 * in-process harness starts it instead of compiling the worker's sources again.
 */
export function bundledStreamWorker(): URL | undefined {
  const main = process.env[HARNESS_CLI_ENV];
  return main ? pathToFileURL(path.join(path.dirname(main), 'stream-worker.js')) : undefined;
}

let ownBundle: Promise<HarnessCliBundle> | undefined;

/**
 * The main file of the bundled CLI: the global setup's, or else (a run without
 * it, such as the soak outside vitest) one built now for this process.
 */
export async function harnessCliMain(): Promise<string> {
  const provided = process.env[HARNESS_CLI_ENV];
  if (provided) return provided;
  ownBundle ??= buildHarnessCli().then((bundle) => {
    process.once('exit', () => bundle.remove());
    return bundle;
  });
  return (await ownBundle).main;
}
