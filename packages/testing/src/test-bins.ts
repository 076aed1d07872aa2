/**
 * The bins that tests start as processes, bundled from source once per run.
 * Started through tsx, every process paid for the loader and for compiling its
 * sources again (about 4 s of CPU a start of the harness against about 2 s for
 * the bundle). The bundle is built fresh each run, never reused, so it can't
 * be stale; a test that finds none fails, saying why, and never falls back to tsx.
 */
import { existsSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { testRunDir } from './test-run.js';
import { workspacePackageDir } from './workspace-packages.js';

/** A bin of the workspace, by the name it is installed under. */
export type TestBin = 'a2a-harness' | 'a2a-commands' | 'a2a-acp' | 'a2a-chat';

/** Each bundle's entry: its package, and its source inside that package. */
const ENTRIES: Record<TestBin, [string, string]> = {
  'a2a-harness': ['a2a-harness', 'src/cli/main.ts'],
  'a2a-commands': ['a2a-commands', 'src/check/bin.ts'],
  'a2a-acp': ['a2a-acp', 'src/cli/main.ts'],
  'a2a-chat': ['a2a-terminal-chat', 'src/cli/main.ts'],
};

/** Files a bin starts as workers from beside its code, by output name (stream-worker-thread.ts). */
const WORKERS: Partial<Record<TestBin, Record<string, string>>> = {
  'a2a-harness': { 'stream-worker': 'src/models/stream-worker.ts' },
};

/**
 * The entries of `bin`'s bundle: its main file and the workers it starts,
 * from the package folder `packageDir` (this checkout's, unless another is named).
 */
export function binEntries(
  bin: TestBin,
  packageDir = workspacePackageDir(ENTRIES[bin][0]),
): Record<string, string> {
  const files = { [bin]: ENTRIES[bin][1], ...WORKERS[bin] };
  return Object.fromEntries(
    Object.entries(files).map(([name, source]) => [name, path.join(packageDir, source)]),
  );
}

/** The folder of a run's bins, inside the run's folder. */
export const binsDir = (runDir: string): string => path.join(runDir, 'bins');

/** The main file of `bin` in the bundle of the run folder `runDir`, run with plain `node`. */
export const binPath = (runDir: string, bin: TestBin): string =>
  path.join(binsDir(runDir), `${bin}.js`);

/**
 * Bundles every bin into `runDir`'s bins folder, in one build whose shared
 * code lands in shared chunks.
 */
export async function buildTestBins(runDir: string): Promise<void> {
  const outdir = binsDir(runDir);
  const bins = Object.keys(ENTRIES) as TestBin[];
  const entryPoints = Object.assign({}, ...bins.map((bin) => binEntries(bin)));
  try {
    await bundleForNode(entryPoints, outdir);
  } catch (error) {
    throw new Error(`could not bundle the bins for the tests: ${String(error)}`, { cause: error });
  }
  linkNodeModules(outdir, path.resolve(workspacePackageDir('a2a-harness'), '../..'));
}

/**
 * Code that finds a package at run time (the web chat's build, the SQLite
 * driver for its worker) looks in node_modules beside itself: `checkout`'s.
 */
export function linkNodeModules(outdir: string, checkout: string): void {
  symlinkSync(path.join(checkout, 'node_modules'), path.join(outdir, 'node_modules'), 'dir');
}

/**
 * Where installed packages go: into the bundle, for quick starts, or
 * `outside` it, loaded from node_modules as after an npm install.
 */
export type InstalledPackages = 'bundled' | 'outside';

/**
 * Bundles TypeScript entries (output name to source file) for plain `node`,
 * with the workspace packages they import read as TypeScript through the
 * `a2a-source` condition. Packages from node_modules are bundled too, unless
 * `installed` is `outside`: Node 20 loads a package's files one module at a
 * time, and that was most of a process's start (1.5 s of CPU a start of the
 * harness against 0.9 s bundled, and a run starts it about 150 times). Those
 * in `LOADED_FROM_THEIR_FILES` always stay outside, imported by their resolved
 * paths.
 */
export async function bundleForNode(
  entryPoints: Record<string, string>,
  outdir: string,
  installed: InstalledPackages = 'bundled',
): Promise<void> {
  // Reading and compiling the source is a third of a start: less of it, with names kept for stack traces.
  const minify = installed === 'bundled';
  await esbuild.build({
    entryPoints,
    outdir,
    bundle: true,
    // Code loaded with import() stays lazy in chunks of its own.
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minifyWhitespace: minify,
    minifySyntax: minify,
    conditions: ['a2a-source'],
    plugins: [outsideTheBundle(installed)],
    // The CommonJS packages in the bundle call require() for Node's own modules.
    banner: {
      js: "import { createRequire as createRequireOfBundle } from 'node:module'; const require = createRequireOfBundle(import.meta.url);",
    },
    logLevel: 'silent',
  });
}

/** The main file of `bin` in this run's bundle, built by the global setup (test-run-setup.ts). */
export function bundledBin(bin: TestBin): string {
  const main = binPath(testRunDir(), bin);
  if (!existsSync(main)) throw new Error(`${main} is missing: the run's bundle was not built`);
  return main;
}

const RESOLVING = Symbol('resolving');

/**
 * Packages that must load from their installed files: native addons, and
 * packages that start workers from their own files (pino's transports) or
 * that are loaded only on request (gRPC).
 */
const LOADED_FROM_THEIR_FILES = /^(better-sqlite3|pino|pino-pretty|thread-stream|@grpc\/)(\/|$)/;

/** Optional peers that are not installed: a require() of one fails at run time, as installed. */
const OPTIONAL_PEERS = /^(pg-native|bufferutil|utf-8-validate|react-devtools-core|fsevents)$/;

/**
 * Leaves installed packages out of the bundle, imported by the path esbuild
 * resolved: `LOADED_FROM_THEIR_FILES`, or all of them when `installed` is
 * `outside`. Workspace packages resolve to their sources and are bundled.
 */
function outsideTheBundle(installed: InstalledPackages): esbuild.Plugin {
  return {
    name: 'outside-the-bundle',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === RESOLVING) return undefined;
        if (args.path.startsWith('node:')) return { path: args.path, external: true };
        if (OPTIONAL_PEERS.test(args.path)) return { path: args.path, external: true };
        if (installed === 'bundled' && !LOADED_FROM_THEIR_FILES.test(args.path)) return undefined;
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: RESOLVING,
        });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        if (!resolved.path.split(path.sep).includes('node_modules')) return undefined;
        return { path: resolved.path, external: true };
      });
    },
  };
}
