import { constants, type Stats } from 'node:fs';
import { lstat, open, readdir, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Caller, CommandRegistry, CommandRun, RegisteredCommand } from 'a2a-commands';
import { watch as watchPaths, type FSWatcher } from 'chokidar';
import type { Logger } from 'pino';
import { commandNameFromFile, parseCommandFile } from './parse-file.js';
import type { CustomCommandDefinition } from './parse-file.js';
import { customCommandRun } from './run.js';

/** The default {@link CustomCommandsOptions.maxFileBytes}: 64 KiB. */
export const DEFAULT_MAX_FILE_BYTES = 64 * 1024;
/** The default {@link CustomCommandsOptions.debounceMs}. */
export const DEFAULT_DEBOUNCE_MS = 100;

export interface CustomCommandsOptions {
  /**
   * The directories to read, highest priority first: when two of them hold a file of
   * the same name, the first one's file is used and the other is skipped with a warning.
   * Relative paths are resolved against the working directory when constructed.
   */
  dirs: string[];
  registry: CommandRegistry;
  logger: Logger;
  /** Larger files are skipped with a warning. Default {@link DEFAULT_MAX_FILE_BYTES}. */
  maxFileBytes?: number;
  /** The handler for a definition. Default {@link customCommandRun} (a sub-task). */
  runFor?: (definition: CustomCommandDefinition) => CommandRun;
  /** Quiet time after a file event before the file is re-read. Default 100 ms. */
  debounceMs?: number;
  /**
   * Who may run a definition (SEMANTICS §9); everyone when it answers undefined.
   * By default, a definition with `callers` may be run by nobody.
   */
  allowedFor?: (definition: CustomCommandDefinition) => ((caller: Caller) => boolean) | undefined;
}

interface Owned {
  file: string;
  definition: CustomCommandDefinition;
  /** The object the registry returned: the command is ours only while it is still this one. */
  registered: RegisteredCommand;
}

type Candidate =
  { kind: 'absent' } | { kind: 'skip'; reason: string } | { kind: 'read'; content: string };

/**
 * Custom commands from Markdown files: `<dir>/<name>.md` becomes `/<name>`.
 *
 * What is read, and what never is:
 * - only regular `*.md` files directly in each directory: no recursion, dotfiles and
 *   other names are ignored quietly, and a `.md` file with an invalid command name is
 *   skipped with a warning;
 * - symbolic links are skipped, whatever they point to, and files are opened with
 *   `O_NOFOLLOW` (where the OS has it) so a file swapped for a link after the check is
 *   refused too; the path opened is always `path.join(dir, name + '.md')` for a name
 *   that matched `[a-z][a-z0-9-]*`, so it cannot leave the directory;
 * - files over `maxFileBytes` and files that are not valid UTF-8 are skipped.
 *
 * Each skip is logged once per file and reason with `logger.warn({ file, reason }, ...)`.
 *
 * Collisions: for each name the first directory (in `dirs` order) holding a valid file
 * wins. A name already registered by someone else (a built-in, a plugin) is skipped
 * with a warning and stays skipped until its file changes again. This class only ever
 * unregisters commands that it registered and that are still registered as it left
 * them.
 */
export class CustomCommands {
  private readonly dirs: string[];
  private readonly registry: CommandRegistry;
  private readonly logger: Logger;
  private readonly maxFileBytes: number;
  private readonly runFor: (definition: CustomCommandDefinition) => CommandRun;
  private readonly debounceMs: number;
  private readonly allowedFor: NonNullable<CustomCommandsOptions['allowedFor']>;

  private readonly owned = new Map<string, Owned>();
  /** The last reason logged per skipped file, so a rescan does not repeat warnings. */
  private readonly warned = new Map<string, string>();
  /** Per command name, the chain of pending re-reads: one at a time for each name. */
  private readonly queues = new Map<string, Promise<void>>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly listings = new Map<string, Promise<Set<string>>>();
  private watchers: FSWatcher[] = [];
  private watching = false;
  private closed = false;

  constructor(options: CustomCommandsOptions) {
    const { maxFileBytes = DEFAULT_MAX_FILE_BYTES, debounceMs = DEFAULT_DEBOUNCE_MS } = options;
    if (!Number.isSafeInteger(maxFileBytes) || maxFileBytes <= 0) {
      throw new RangeError(`maxFileBytes must be a positive integer, got ${maxFileBytes}`);
    }
    if (!Number.isFinite(debounceMs) || debounceMs < 0) {
      throw new RangeError(`debounceMs must be zero or more, got ${debounceMs}`);
    }
    this.dirs = [...new Set(options.dirs.map((dir) => path.resolve(dir)))];
    this.registry = options.registry;
    this.logger = options.logger;
    this.maxFileBytes = maxFileBytes;
    this.runFor = options.runFor ?? customCommandRun;
    this.debounceMs = debounceMs;
    this.allowedFor =
      options.allowedFor ?? ((definition) => (definition.callers ? () => false : undefined));
  }

  /** The names of the commands this instance has registered, in registration order. */
  names(): string[] {
    return [...this.owned.keys()];
  }

  /**
   * Scans every directory and registers each valid file, in name order. Missing
   * directories are fine. Calling it again re-reads everything (a manual reload).
   * Does nothing after {@link close}.
   */
  async load(): Promise<void> {
    await this.rescan();
  }

  /**
   * Watches each directory that exists now. Files added, changed or removed are re-read
   * after `debounceMs` and the registry follows, so the card does too.
   *
   * A directory created after this call is not watched: restart the server (or call
   * `close()` and start a new instance) to pick it up. A directory removed while watched
   * removes its commands as its files are reported unlinked.
   *
   * Once the watchers are ready, everything is scanned once more, so that a change made
   * between `load()` and `watch()` is not missed. Calling it twice does nothing.
   */
  async watch(): Promise<void> {
    if (this.watching || this.closed) return;
    this.watching = true;
    for (const dir of this.dirs) {
      if (!(await isDirectory(dir))) {
        this.logger.debug({ dir }, 'custom commands: directory missing, not watched');
        continue;
      }
      const watcher = watchPaths(dir, {
        ignoreInitial: true,
        depth: 0,
        followSymlinks: false,
        persistent: true,
      });
      watcher.on('all', (event, file) => this.onEvent(dir, event, file));
      // chokidar drops a `change` whose mtime equals the last one it saw while the atime is
      // newer (its "only read, not written" test). With coarse file-system timestamps a
      // write made within one clock tick of the previous write and our read is dropped
      // that way, so the native events also trigger a re-read. A re-read of an unchanged
      // file changes nothing.
      watcher.on('raw', (_event, rawPath, details) => {
        const file = rawFile(dir, rawPath, details);
        if (file !== undefined) this.onEvent(dir, 'raw', file);
      });
      watcher.on('error', (error) =>
        this.logger.warn({ dir, err: error }, 'custom commands: watch error'),
      );
      this.watchers.push(watcher);
      await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
      if (this.closed) return;
    }
    await this.rescan();
  }

  /**
   * Stops watching, waits for re-reads in flight, then unregisters the commands this
   * instance registered (only those still registered as it left them). Final: `load()`
   * and `watch()` do nothing afterwards.
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    const watchers = this.watchers;
    this.watchers = [];
    await Promise.all(watchers.map((watcher) => watcher.close()));
    await Promise.all([...this.queues.values()]);
    for (const name of [...this.owned.keys()]) this.remove(name);
  }

  private async rescan(): Promise<void> {
    if (this.closed) return;
    this.listings.clear();
    const names = new Set(this.owned.keys());
    for (const dir of this.dirs) for (const name of await this.listNames(dir)) names.add(name);
    for (const name of [...names].sort()) await this.reconcile(name);
  }

  /** The command names a directory's entries stand for; warns about bad `.md` names. */
  private async listNames(dir: string): Promise<string[]> {
    let entries: string[];
    try {
      entries = await readdir(dir);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ENOENT') {
        this.logger.debug({ dir }, 'custom commands: directory missing');
      } else {
        this.skip(dir, `cannot list the directory (${code ?? 'error'})`);
      }
      return [];
    }
    const names: string[] = [];
    for (const entry of entries) {
      const named = this.nameOf(path.join(dir, entry));
      if (named) names.push(named);
    }
    return names;
  }

  /** The command name for a file path, or undefined (with a warning when it deserves one). */
  private nameOf(file: string): string | undefined {
    const fileName = path.basename(file);
    const named = commandNameFromFile(fileName);
    if (named.ok) return named.name;
    if (fileName.startsWith('.') || !fileName.endsWith('.md')) return undefined;
    this.skip(file, named.reason);
    return undefined;
  }

  private onEvent(dir: string, event: string, file: string): void {
    if (event !== 'add' && event !== 'change' && event !== 'unlink' && event !== 'raw') return;
    if (path.dirname(file) !== dir) return;
    this.listings.delete(dir);
    if (event === 'unlink') this.warned.delete(file);
    const name = event === 'add' || event === 'change' ? this.nameOf(file) : quietNameOf(file);
    if (name === undefined || this.closed) return;
    const pending = this.timers.get(name);
    if (pending) clearTimeout(pending);
    const timer = setTimeout(() => {
      this.timers.delete(name);
      void this.reconcile(name);
    }, this.debounceMs);
    timer.unref?.();
    this.timers.set(name, timer);
  }

  /** Re-reads `<dir>/<name>.md` in every directory and makes the registry agree. */
  private reconcile(name: string): Promise<void> {
    const previous = this.queues.get(name) ?? Promise.resolve();
    const next = previous
      .then(() => this.reconcileNow(name))
      .catch((error: unknown) =>
        this.logger.error({ command: name, err: error }, 'custom commands: reload failed'),
      );
    this.queues.set(name, next);
    void next.then(() => {
      if (this.queues.get(name) === next) this.queues.delete(name);
    });
    return next;
  }

  private async reconcileNow(name: string): Promise<void> {
    if (this.closed) return;
    const fileName = `${name}.md`;
    let winner: { file: string; definition: CustomCommandDefinition } | undefined;
    for (const dir of this.dirs) {
      const file = path.join(dir, fileName);
      const candidate = await this.read(dir, fileName);
      if (candidate.kind === 'absent') {
        this.warned.delete(file);
        continue;
      }
      if (candidate.kind === 'skip') {
        this.skip(file, candidate.reason);
        continue;
      }
      const parsed = parseCommandFile(fileName, candidate.content);
      if (!parsed.ok) {
        this.skip(file, parsed.reason);
      } else if (winner) {
        this.skip(file, `"/${name}" is already defined by ${winner.file}, which comes first`);
      } else {
        winner = { file, definition: parsed.definition };
      }
    }
    if (this.closed) return;
    this.apply(name, winner);
  }

  /** Synchronous, so no request ever sees the registry between an unregister and a register. */
  private apply(
    name: string,
    winner: { file: string; definition: CustomCommandDefinition } | undefined,
  ): void {
    let current = this.owned.get(name);
    if (current && this.registry.get(name) !== current.registered) {
      // Someone else removed or replaced it: it is not ours any more, leave it be.
      this.owned.delete(name);
      current = undefined;
    }
    if (!winner) {
      if (current) this.remove(name);
      return;
    }
    if (
      current &&
      current.file === winner.file &&
      // Every field, so a field added to the file later cannot be left out of the comparison.
      isDeepStrictEqual(current.definition, winner.definition)
    ) {
      this.warned.delete(winner.file);
      return;
    }
    if (!current && this.registry.has(name)) {
      this.skip(winner.file, `"/${name}" is already registered by another command`);
      return;
    }
    if (current) {
      this.registry.unregister(name);
      this.owned.delete(name);
    }
    const { definition, file } = winner;
    try {
      const registered = this.registry.register({
        name: definition.name,
        description: definition.description,
        argument_hint: definition.argument_hint,
        arguments: definition.arguments,
        allowed: this.allowedFor(definition),
        run: this.runFor(definition),
      });
      this.owned.set(name, { file, definition, registered });
      this.warned.delete(file);
      this.logger.info(
        { command: name, file },
        current ? 'custom command updated' : 'custom command registered',
      );
    } catch (error) {
      this.skip(file, error instanceof Error ? error.message : String(error));
    }
  }

  private remove(name: string): void {
    const current = this.owned.get(name);
    if (!current) return;
    this.owned.delete(name);
    if (this.registry.get(name) !== current.registered) return;
    this.registry.unregister(name);
    this.logger.info({ command: name, file: current.file }, 'custom command removed');
  }

  private skip(file: string, reason: string): void {
    if (this.warned.get(file) === reason) return;
    this.warned.set(file, reason);
    this.logger.warn({ file, reason }, 'custom command file skipped');
  }

  /** Reads one candidate file with every check in the class comment. */
  private async read(dir: string, fileName: string): Promise<Candidate> {
    const file = path.join(dir, fileName);
    let stats: Stats;
    try {
      stats = await lstat(file);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'absent' };
      return { kind: 'skip', reason: `cannot read the file (${code ?? 'error'})` };
    }
    if (stats.isSymbolicLink()) {
      return { kind: 'skip', reason: 'symbolic links are not followed' };
    }
    if (!stats.isFile()) return { kind: 'skip', reason: 'not a regular file' };
    if (stats.nlink > 1) return hardLinked();
    if (stats.size > this.maxFileBytes) return this.tooLarge();
    // On a case-insensitive file system `review.md` would also open `Review.md`:
    // only an entry spelt exactly like the name counts.
    if (!(await this.listing(dir)).has(fileName)) return { kind: 'absent' };

    const flags = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
    let handle: FileHandle;
    try {
      handle = await open(file, flags);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ENOENT') return { kind: 'absent' };
      if (code === 'ELOOP') return { kind: 'skip', reason: 'symbolic links are not followed' };
      return { kind: 'skip', reason: `cannot read the file (${code ?? 'error'})` };
    }
    try {
      const opened = await handle.stat();
      if (!opened.isFile()) return { kind: 'skip', reason: 'not a regular file' };
      // Checked again on what was opened: the name may have been relinked since lstat.
      if (opened.nlink > 1) return hardLinked();
      if (opened.size > this.maxFileBytes) return this.tooLarge();
      // Read at most one byte more than allowed: a file that grew since stat is caught too.
      const buffer = Buffer.alloc(this.maxFileBytes + 1);
      let length = 0;
      while (length < buffer.length) {
        const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
        if (bytesRead === 0) break;
        length += bytesRead;
      }
      if (length > this.maxFileBytes) return this.tooLarge();
      try {
        const content = new TextDecoder('utf-8', { fatal: true }).decode(
          buffer.subarray(0, length),
        );
        return { kind: 'read', content };
      } catch {
        return { kind: 'skip', reason: 'the file is not valid UTF-8' };
      }
    } finally {
      await handle.close();
    }
  }

  /**
   * The directory's entries, listed once for many reads: listing it for each of
   * 2,000 files made loading quadratic. Forgotten on every event in the
   * directory and at every rescan, so a read always follows its file's event.
   */
  private listing(dir: string): Promise<Set<string>> {
    let listed = this.listings.get(dir);
    if (!listed) {
      listed = readdir(dir).then(
        (entries) => new Set(entries),
        () => new Set<string>(),
      );
      this.listings.set(dir, listed);
    }
    return listed;
  }

  private tooLarge(): Candidate {
    return { kind: 'skip', reason: `the file is larger than ${this.maxFileBytes} bytes` };
  }
}

/** The file a native (`raw`) chokidar event is about, from either form chokidar gives. */
function rawFile(dir: string, rawPath: unknown, details: unknown): string | undefined {
  if (typeof rawPath !== 'string' || rawPath === '') return undefined;
  const watchedPath =
    details && typeof details === 'object' && 'watchedPath' in details
      ? details.watchedPath
      : undefined;
  if (typeof watchedPath === 'string') {
    // fs.watch: `rawPath` is a name inside the watched directory, or the watched file's name.
    return watchedPath === dir ? path.join(dir, rawPath) : watchedPath;
  }
  return path.isAbsolute(rawPath) ? rawPath : undefined; // polling gives the full path
}

function quietNameOf(file: string): string | undefined {
  const named = commandNameFromFile(path.basename(file));
  return named.ok ? named.name : undefined;
}

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

function errorCode(error: unknown): string | undefined {
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return undefined;
}

/**
 * A file with more than one name may be another name of a file outside the
 * directory (a hard link to a system file), which the symlink checks do not see.
 */
function hardLinked(): Candidate {
  return { kind: 'skip', reason: 'files with more than one hard link are not read' };
}
