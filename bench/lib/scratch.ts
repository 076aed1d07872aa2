/**
 * The temporary files of one bench process (the servers' data folders and
 * configuration, heap snapshots) in one folder, removed when the process
 * exits: a full bench writes gigabytes of databases that nothing reads after.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

let folder: string | undefined;

/** A new, empty folder named after `name`, inside this process's scratch folder. */
export function scratchDir(name: string): string {
  if (!folder) {
    const made = mkdtempSync(path.join(os.tmpdir(), 'a2a-bench-'));
    folder = made;
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
  }
  return mkdtempSync(path.join(folder, `${name}-`));
}
