/**
 * The packs' TypeScript build emits, for each package, what `tsc -p … --noCheck`
 * emits for it alone, though the builds share one compiler's parsed files.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTypeScriptPackages } from '../src/typescript-build.js';
import { workspacePackageDir } from '../src/workspace-packages.js';

const run = promisify(execFile);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

let work: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'a2a-typescript-build-'));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

async function filesUnder(dir: string): Promise<Map<string, string>> {
  const names = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = new Map<string, string>();
  for (const entry of names.filter((each) => each.isFile())) {
    const file = path.join(entry.parentPath, entry.name);
    files.set(path.relative(dir, file), await readFile(file, 'utf8'));
  }
  return files;
}

describe('building packages together', () => {
  it('emits for each package the same files as tsc alone, maps and declarations included', async () => {
    // The same package twice: the second build reads every shared file from the first's parse.
    const tsconfig = path.join(workspacePackageDir('a2a-chat-core'), 'tsconfig.build.json');
    const outDirs = ['first', 'second'].map((build) => path.join(work, build, 'dist'));
    buildTypeScriptPackages(outDirs.map((outDir) => ({ tsconfig, outDir })));
    const alone = path.join(work, 'alone', 'dist');
    await run(process.execPath, [tsc, '-p', tsconfig, '--outDir', alone, '--noCheck']);
    const expected = await filesUnder(alone);
    expect([...expected.keys()].some((file) => file.endsWith('.d.ts'))).toBe(true);
    for (const outDir of outDirs) expect(await filesUnder(outDir)).toEqual(expected);
  });

  it('fails on a syntax error, naming the file, as tsc does', async () => {
    const broken = path.join(work, 'broken');
    await mkdir(path.join(broken, 'src'), { recursive: true });
    await writeFile(path.join(broken, 'src', 'index.ts'), 'export const x = ;\n');
    await writeFile(
      path.join(broken, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { rootDir: 'src', declaration: true }, include: ['src'] }),
    );
    expect(() =>
      buildTypeScriptPackages([
        { tsconfig: path.join(broken, 'tsconfig.json'), outDir: path.join(broken, 'dist') },
      ]),
    ).toThrow(/index\.ts.*Expression expected/s);
  });
});
