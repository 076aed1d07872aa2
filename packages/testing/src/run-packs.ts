/**
 * Workspace packages packed once per run, in the run's folder (test-run.ts),
 * whichever test file asks first: packing builds the package, which is most
 * of the work of the files that install one. Test files run in several
 * processes, so the first to ask for a package takes a lock (a folder made
 * with mkdir, which only one process can make) and packs it; the others wait
 * for its record, or for its failure. The packages one process locks are
 * built together.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { packWorkspacePackages, type Packed } from './packing.js';
import { testRunDir } from './test-run.js';

/** A package that takes longer than this to pack, on a loaded machine, has hung. */
const PACK_LIMIT_MS = 10 * 60_000;
const RECHECK_MS = 250;

const inThisProcess = new Map<string, Promise<Packed>>();

/** `names` packed, each once for the whole run. */
export function packedForRun(names: string[]): Promise<Packed[]> {
  const packs = path.join(testRunDir(), 'packs');
  const wanted = names.filter((name) => !inThisProcess.has(name));
  if (wanted.length > 0) {
    const ours = mkdir(packs, { recursive: true }).then(async () => {
      const locked = await Promise.all(
        wanted.map((name) => takeLock(path.join(packs, `${name}.lock`))),
      );
      return wanted.filter((_, index) => locked[index]);
    });
    // The packages this process locked are built together: they share one compiler.
    const packing = ours.then((mine) => packAndRecord(mine, packs));
    for (const name of wanted) {
      inThisProcess.set(
        name,
        ours.then(async (mine) =>
          mine.includes(name)
            ? (await packing).find((each) => each.name === name)!
            : waitForRecord(packs, name),
        ),
      );
    }
  }
  return Promise.all(names.map((name) => inThisProcess.get(name)!));
}

async function packAndRecord(names: string[], packs: string): Promise<Packed[]> {
  if (names.length === 0) return [];
  try {
    const packed = await packWorkspacePackages(names, packs);
    for (const each of packed) {
      // Written whole, then renamed: a waiting process never reads half a record.
      const record = path.join(packs, `${each.name}.packed.json`);
      await writeFile(`${record}.partial`, JSON.stringify(each));
      await rename(`${record}.partial`, record);
    }
    return packed;
  } catch (error) {
    for (const name of names)
      await writeFile(path.join(packs, `${name}.failed.txt`), String(error));
    throw error;
  }
}

async function waitForRecord(packs: string, name: string): Promise<Packed> {
  const record = path.join(packs, `${name}.packed.json`);
  const failure = path.join(packs, `${name}.failed.txt`);
  const deadline = Date.now() + PACK_LIMIT_MS;
  while (!existsSync(record)) {
    if (existsSync(failure)) {
      throw new Error(
        `packing ${name} failed in another test process: ${await readFile(failure, 'utf8')}`,
      );
    }
    if (Date.now() > deadline) throw new Error(`packing ${name} took over ${PACK_LIMIT_MS} ms`);
    await delay(RECHECK_MS);
  }
  return JSON.parse(await readFile(record, 'utf8')) as Packed;
}

async function takeLock(lock: string): Promise<boolean> {
  try {
    await mkdir(lock);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}
