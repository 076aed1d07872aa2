/**
 * The servers the bench measures, run as plain JavaScript: each entry is built
 * once per bench process, its workspace code bundled and its installed
 * packages left in node_modules, as after an npm install of the built
 * packages. Run through tsx instead, the harness spent about 10% more CPU a
 * command than its `npm run build` output, in the same rounds: tsx's
 * transform wraps every function it defines in a naming helper, and the
 * harness defines closures per request. The bare agents are built the same way.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { binEntries, bundleForNode, linkNodeModules } from 'a2a-testing/test-bins';
import { scratchDir } from './scratch.js';

const builds = new Map<string, Promise<string>>();

/** The built main file of the TypeScript `entry` (an absolute path). */
export function builtEntry(entry: string): Promise<string> {
  let building = builds.get(entry);
  if (!building) {
    building = build(entry);
    builds.set(entry, building);
  }
  return building;
}

async function build(entry: string): Promise<string> {
  const { entries, checkout } = entriesOf(entry);
  const outdir = scratchDir('built');
  await bundleForNode(entries, outdir, 'outside');
  linkNodeModules(outdir, checkout);
  return path.join(outdir, `${Object.keys(entries)[0]}.js`);
}

/**
 * The harness's main, of this checkout or another (`--baseline`), with the
 * stream worker it starts from beside itself; any other file alone.
 */
function entriesOf(entry: string): { entries: Record<string, string>; checkout: string } {
  const packageDir = path.resolve(entry, '../../..');
  const harness = binEntries('a2a-harness', packageDir);
  if (harness['a2a-harness'] === entry) {
    return { entries: harness, checkout: path.resolve(packageDir, '../..') };
  }
  return { entries: { [path.basename(entry, '.ts')]: entry }, checkout: installedBeside(entry) };
}

/** The nearest folder above `file` with a node_modules. */
function installedBeside(file: string): string {
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'node_modules'))) return dir;
  }
  throw new Error(`no node_modules above ${file}`);
}
