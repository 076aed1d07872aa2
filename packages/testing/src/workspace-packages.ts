/** Where the workspace's own packages are, and which versions of registry packages it installed. */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder of a package as the workspace installed it (a workspace
 * package's folder is its link), found by walking up from here: not every
 * package exports its package.json.
 */
export function workspacePackageDir(name: string): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return realpathSync(candidate);
    if (path.dirname(dir) === dir) throw new Error(`${name} is not installed in the workspace`);
  }
}

/** The version of a package the workspace has installed: the npm cache holds its tarball. */
export function installedVersion(name: string): string {
  const manifest = path.join(workspacePackageDir(name), 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}
