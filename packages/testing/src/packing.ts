/**
 * Workspace packages as npm ships them, made without touching the working
 * tree: each package is copied to a staging folder, built there (TypeScript,
 * or Vite for the web chat) and packed with `npm pack`. Then installed, from
 * the tarballs, into a project outside the workspace.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildTypeScriptPackages, type TypeScriptBuild } from './typescript-build.js';
import { installedVersion, workspacePackageDir } from './workspace-packages.js';

export { installedVersion, workspacePackageDir };

const run = promisify(execFile);
const BIG_OUTPUT = 64 * 1024 * 1024;

/** The folders of a package that are never copied to the staging folder. */
const NOT_STAGED = new Set(['node_modules', 'dist', 'test']);

export interface Packed {
  name: string;
  tarball: string;
  /** The paths inside the tarball. */
  files: string[];
}

/** Vite's build for the web chat; one TypeScript build for all the others (typescript-build.ts). */
async function buildStaged(staged: Array<{ packageDir: string; stage: string }>): Promise<void> {
  const typescript: TypeScriptBuild[] = [];
  const vite: Array<Promise<unknown>> = [];
  for (const { packageDir, stage } of staged) {
    const outDir = path.join(stage, 'dist');
    const manifest = JSON.parse(await readFile(path.join(packageDir, 'package.json'), 'utf8')) as {
      scripts?: Record<string, string>;
    };
    if (manifest.scripts?.build?.startsWith('vite build')) {
      const bin = path.join(workspacePackageDir('vite'), 'bin', 'vite.js');
      vite.push(
        run(
          process.execPath,
          [bin, 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
          {
            cwd: packageDir,
            maxBuffer: BIG_OUTPUT,
          },
        ),
      );
    } else {
      // Types are checked by `npm run typecheck`. Here the packages a package
      // imports have no dist of their own in the tree, so checking against their
      // declarations cannot work; what is emitted is the same.
      typescript.push({ tsconfig: path.join(packageDir, 'tsconfig.build.json'), outDir });
    }
  }
  // Vite works in its own process meanwhile; the TypeScript build holds this one.
  try {
    buildTypeScriptPackages(typescript);
  } catch (error) {
    await Promise.allSettled(vite);
    throw error;
  }
  await Promise.all(vite);
}

/** Builds and packs workspace packages into `work`, leaving their folders in the tree as they were. */
export async function packWorkspacePackages(names: string[], work: string): Promise<Packed[]> {
  const staged = await Promise.all(
    names.map(async (name) => {
      const packageDir = workspacePackageDir(name);
      const stage = path.join(work, 'stage', name);
      await cp(packageDir, stage, {
        recursive: true,
        filter: (source) => !NOT_STAGED.has(path.relative(packageDir, source).split(path.sep)[0]!),
      });
      return { name, packageDir, stage };
    }),
  );
  await buildStaged(staged);
  return Promise.all(staged.map(({ name, stage }) => pack(name, stage, work)));
}

async function pack(name: string, stage: string, work: string): Promise<Packed> {
  // --ignore-scripts: the build above stands in for prepack, which would build in the tree.
  const { stdout } = await run(
    'npm',
    ['pack', '--json', '--ignore-scripts', '--pack-destination', work],
    { cwd: stage, maxBuffer: BIG_OUTPUT },
  );
  const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: { path: string }[] }>;
  return {
    name,
    tarball: path.join(work, packed!.filename),
    files: packed!.files.map((file) => file.path),
  };
}

export interface InstallOptions {
  /** Registry packages the project adds, by exact version. */
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  /**
   * Native addons to take from the workspace's own install instead of
   * compiling them again (install scripts do not run): the same version
   * built for the same Node.
   */
  nativeFromWorkspace?: string[];
}

/**
 * A new project in `project` with the tarballs installed, as an adopter
 * would. The tarballs come first, so that one packed package depending on
 * another gets the packed one, never a namesake from the registry.
 */
export async function installInProject(
  project: string,
  packed: Packed[],
  options: InstallOptions = {},
): Promise<void> {
  await mkdir(project, { recursive: true });
  const manifest = {
    name: 'adopter',
    private: true,
    type: 'module',
    dependencies: {
      ...Object.fromEntries(packed.map((each) => [each.name, `file:${each.tarball}`])),
      ...options.dependencies,
    },
    devDependencies: options.devDependencies ?? {},
  };
  await writeFile(path.join(project, 'package.json'), JSON.stringify(manifest, null, 2));
  // The tarballs come from the warm cache; metadata npm lacks comes from the registry.
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], {
    cwd: project,
    maxBuffer: BIG_OUTPUT,
  });
  for (const name of options.nativeFromWorkspace ?? []) {
    const installed = path.join(project, 'node_modules', name);
    const version = JSON.parse(await readFile(path.join(installed, 'package.json'), 'utf8'))
      .version as string;
    if (version !== installedVersion(name)) {
      throw new Error(
        `${name} ${version} was installed, but the workspace has ${installedVersion(name)}: its native build cannot be reused`,
      );
    }
    await cp(path.join(workspacePackageDir(name), 'build'), path.join(installed, 'build'), {
      recursive: true,
    });
  }
}
