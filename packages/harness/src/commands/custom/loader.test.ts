import { mkdir, mkdtemp, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CommandRegistry, type CommandRun } from 'a2a-commands';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CustomCommands, DEFAULT_MAX_FILE_BYTES, type CustomCommandsOptions } from './loader.js';

let roots: string[] = [];
let instances: CustomCommands[] = [];

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'harness-custom-commands-'));
  roots.push(dir);
  return dir;
}

function file(description: string, body = 'Do $ARGUMENTS'): string {
  return `---\ndescription: ${JSON.stringify(description)}\n---\n${body}\n`;
}

function setup(dirs: string[], options: Partial<CustomCommandsOptions> = {}) {
  const registry = options.registry ?? new CommandRegistry();
  const logger = pino({ level: 'silent' });
  const warn = vi.spyOn(logger, 'warn');
  const commands = new CustomCommands({ dirs, registry, logger, ...options });
  instances.push(commands);
  const warnings = () =>
    warn.mock.calls.map((call) => call[0] as unknown as { file: string; reason: string });
  return { registry, commands, warnings };
}

/** Polls until `check` holds, failing after `timeoutMs`. */
async function waitFor(check: () => boolean, timeoutMs = 2000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`condition not met in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const builtinRun: CommandRun = () => 'built-in';

beforeEach(() => {
  roots = [];
  instances = [];
});

afterEach(async () => {
  await Promise.all(instances.map((instance) => instance.close()));
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

describe('CustomCommands.load', () => {
  it('registers every valid file in name order with its description and hint', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'zeta.md'), file('Last'));
    await writeFile(
      path.join(dir, 'review.md'),
      '---\ndescription: Review\nargument-hint: "<file>"\n---\nReview $1',
    );
    await writeFile(path.join(dir, 'plain.md'), 'Summarise the thread');
    const { registry, commands, warnings } = setup([dir]);
    await commands.load();
    expect(registry.specs()).toEqual([
      { name: 'plain', description: 'Summarise the thread', argument_hint: '' },
      { name: 'review', description: 'Review', argument_hint: '<file>' },
      { name: 'zeta', description: 'Last', argument_hint: '' },
    ]);
    expect(commands.names()).toEqual(['plain', 'review', 'zeta']);
    expect(warnings()).toEqual([]);
  });

  it('skips bad names with a warning, and dotfiles and other extensions quietly', async () => {
    const dir = await tempDir();
    for (const name of ['Review.md', 'my cmd.md', '1x.md', '.hidden.md', 'notes.txt', 'ok.md']) {
      await writeFile(path.join(dir, name), file('Something'));
    }
    const { registry, commands, warnings } = setup([dir]);
    await commands.load();
    expect(registry.list().map((command) => command.name)).toEqual(['ok']);
    const skipped = warnings();
    expect(skipped.map((warning) => path.basename(warning.file)).sort()).toEqual([
      '1x.md',
      'Review.md',
      'my cmd.md',
    ]);
    for (const warning of skipped) expect(warning.reason).toMatch(/invalid command name/);
  });

  it('skips files with bad content, logging file and reason', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'yaml.md'), '---\ndescription: [oops\n---\nBody');
    await writeFile(path.join(dir, 'model.md'), '---\nmodel: gpt-5\n---\nBody');
    await writeFile(path.join(dir, 'empty.md'), '');
    await writeFile(path.join(dir, 'binary.md'), Buffer.from([0x66, 0xff, 0xfe, 0x00]));
    const { registry, commands, warnings } = setup([dir]);
    await commands.load();
    expect(registry.size).toBe(0);
    const reasons = Object.fromEntries(
      warnings().map((warning) => [path.basename(warning.file), warning.reason]),
    );
    expect(reasons['yaml.md']).toMatch(/invalid YAML/);
    expect(reasons['model.md']).toMatch(/<provider>\/<model>/);
    expect(reasons['empty.md']).toMatch(/empty/);
    expect(reasons['binary.md']).toMatch(/UTF-8/);
    expect(warnings().every((warning) => path.isAbsolute(warning.file))).toBe(true);
  });

  it('skips files over maxFileBytes', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'small.md'), 'x'.repeat(100));
    await writeFile(path.join(dir, 'big.md'), 'x'.repeat(101));
    const { registry, commands, warnings } = setup([dir], { maxFileBytes: 100 });
    await commands.load();
    expect(commands.names()).toEqual(['small']);
    expect(registry.has('big')).toBe(false);
    expect(warnings()).toEqual([
      { file: path.join(dir, 'big.md'), reason: 'the file is larger than 100 bytes' },
    ]);
  });

  it('defaults the limit to 64 KiB', async () => {
    const dir = await tempDir();
    expect(DEFAULT_MAX_FILE_BYTES).toBe(65536);
    await writeFile(path.join(dir, 'fits.md'), 'x'.repeat(65536));
    await writeFile(path.join(dir, 'over.md'), 'x'.repeat(65537));
    const { commands, warnings } = setup([dir]);
    await commands.load();
    expect(commands.names()).toEqual(['fits']);
    expect(warnings().map((warning) => path.basename(warning.file))).toEqual(['over.md']);
  });

  it('refuses a bad maxFileBytes', () => {
    expect(() => setup([], { maxFileBytes: 0 })).toThrow(RangeError);
    expect(() => setup([], { maxFileBytes: 1.5 })).toThrow(RangeError);
  });

  it('skips symbolic links, inside or outside the directory', async () => {
    const dir = await tempDir();
    const outside = await tempDir();
    await writeFile(path.join(outside, 'secret.md'), file('Secret'));
    await writeFile(path.join(dir, 'real.md'), file('Real'));
    await symlink(path.join(outside, 'secret.md'), path.join(dir, 'leak.md'));
    await symlink(path.join(dir, 'real.md'), path.join(dir, 'alias.md'));
    await symlink(path.join(dir, 'nowhere.md'), path.join(dir, 'dangling.md'));
    const { registry, commands, warnings } = setup([dir]);
    await commands.load();
    expect(registry.list().map((command) => command.name)).toEqual(['real']);
    const skipped = warnings();
    expect(skipped.map((warning) => path.basename(warning.file)).sort()).toEqual([
      'alias.md',
      'dangling.md',
      'leak.md',
    ]);
    for (const warning of skipped) expect(warning.reason).toMatch(/symbolic link/);
  });

  it('does not recurse and skips entries that are not regular files', async () => {
    const dir = await tempDir();
    await mkdir(path.join(dir, 'sub'));
    await writeFile(path.join(dir, 'sub', 'deep.md'), file('Deep'));
    await mkdir(path.join(dir, 'folder.md'));
    const { registry, commands, warnings } = setup([dir]);
    await commands.load();
    expect(registry.size).toBe(0);
    expect(warnings()).toEqual([
      { file: path.join(dir, 'folder.md'), reason: 'not a regular file' },
    ]);
  });

  it('is fine with missing directories', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'one.md'), file('One'));
    const { commands, warnings } = setup([path.join(dir, 'missing'), dir]);
    await commands.load();
    await commands.watch();
    expect(commands.names()).toEqual(['one']);
    expect(warnings()).toEqual([]);
  });

  it('leaves a colliding built-in untouched and warns', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'help.md'), file('Custom help'));
    await writeFile(path.join(dir, 'other.md'), file('Other'));
    const registry = new CommandRegistry();
    const builtin = registry.register({ name: 'help', description: 'Built-in', run: builtinRun });
    const { commands, warnings } = setup([dir], { registry });
    await commands.load();
    expect(registry.get('help')).toBe(builtin);
    expect(commands.names()).toEqual(['other']);
    expect(warnings()).toEqual([
      {
        file: path.join(dir, 'help.md'),
        reason: '"/help" is already registered by another command',
      },
    ]);
    await commands.close();
    expect(registry.get('help')).toBe(builtin);
    expect(registry.has('other')).toBe(false);
  });

  it('prefers the first directory when two hold the same name', async () => {
    const first = await tempDir();
    const second = await tempDir();
    await writeFile(path.join(first, 'review.md'), file('From first'));
    await writeFile(path.join(second, 'review.md'), file('From second'));
    await writeFile(path.join(second, 'extra.md'), file('Extra'));
    const { registry, commands, warnings } = setup([first, second]);
    await commands.load();
    expect(registry.get('review')?.description).toBe('From first');
    expect(registry.get('extra')?.description).toBe('Extra');
    expect(warnings()).toEqual([
      {
        file: path.join(second, 'review.md'),
        reason: `"/review" is already defined by ${path.join(first, 'review.md')}, which comes first`,
      },
    ]);

    // Without the first directory's file, the second one's takes over.
    await unlink(path.join(first, 'review.md'));
    await commands.load();
    expect(registry.get('review')?.description).toBe('From second');
  });

  it('uses a later directory when the first one has an invalid file of that name', async () => {
    const first = await tempDir();
    const second = await tempDir();
    await writeFile(path.join(first, 'review.md'), '---\nmodel: bad\n---\nBody');
    await writeFile(path.join(second, 'review.md'), file('From second'));
    const { registry, commands, warnings } = setup([first, second]);
    await commands.load();
    expect(registry.get('review')?.description).toBe('From second');
    expect(warnings().map((warning) => warning.file)).toEqual([path.join(first, 'review.md')]);
  });

  it('wires the definition to runFor, or to a sub-task run by default', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'go.md'), file('Go', 'Go $1'));
    const runFor = vi.fn(() => builtinRun);
    const { registry, commands } = setup([dir], { runFor });
    await commands.load();
    expect(runFor).toHaveBeenCalledWith({
      name: 'go',
      description: 'Go',
      argument_hint: '',
      template: 'Go $1',
    });
    expect(registry.get('go')?.run).toBe(builtinRun);

    const other = setup([dir]);
    await other.commands.load();
    expect(typeof other.registry.get('go')?.run).toBe('function');
    expect(other.registry.get('go')?.run).not.toBe(builtinRun);
  });

  it('does not log the same skip twice on a reload', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'Bad.md'), file('Bad'));
    const { commands, warnings } = setup([dir]);
    await commands.load();
    await commands.load();
    expect(warnings()).toHaveLength(1);
  });
});

describe('CustomCommands.watch', () => {
  it('follows files added, changed and removed', async () => {
    const dir = await tempDir();
    const { registry, commands } = setup([dir], { debounceMs: 50 });
    await commands.load();
    await commands.watch();
    let changes = 0;
    registry.onChange(() => changes++);

    const target = path.join(dir, 'fresh.md');
    await writeFile(target, file('First version'));
    await waitFor(() => registry.has('fresh'));
    expect(registry.get('fresh')?.description).toBe('First version');
    expect(commands.names()).toEqual(['fresh']);
    expect(changes).toBeGreaterThan(0);

    await writeFile(target, file('Second version'));
    await waitFor(() => registry.get('fresh')?.description === 'Second version');

    await unlink(target);
    await waitFor(() => !registry.has('fresh'));
    expect(commands.names()).toEqual([]);
  });

  it('registers a file again when only its arguments changed', async () => {
    const dir = await tempDir();
    const target = path.join(dir, 'ship.md');
    const withChoices = (choices: string) =>
      `---\ndescription: Ship\narguments:\n  - name: where\n    choices: [${choices}]\n---\nShip to $1`;
    await writeFile(target, withChoices('eu'));
    const { registry, commands } = setup([dir], { debounceMs: 20 });
    await commands.load();
    await commands.watch();
    const choices = () =>
      registry
        .get('ship')
        ?.arguments?.[0]?.choices?.map((choice) => choice.value)
        .join(',');
    expect(choices()).toBe('eu');

    await writeFile(target, withChoices('eu, us'));
    await waitFor(() => choices() === 'eu,us');
  });

  // The first write lands within a clock tick of load(): chokidar's own `change` event is
  // dropped then (same mtime, newer atime), so this also pins the native-event fallback.
  it('removes a command whose file turns invalid, and restores it when fixed', async () => {
    const dir = await tempDir();
    const target = path.join(dir, 'flip.md');
    await writeFile(target, file('Valid'));
    const { registry, commands, warnings } = setup([dir], { debounceMs: 20 });
    await commands.load();
    await commands.watch();
    expect(registry.has('flip')).toBe(true);

    await writeFile(target, '---\nmodel: nope\n---\nBody');
    await waitFor(() => !registry.has('flip'));
    expect(warnings().at(-1)).toEqual({ file: target, reason: expect.stringMatching(/model/) });

    await writeFile(target, file('Fixed'));
    await waitFor(() => registry.get('flip')?.description === 'Fixed');
  });

  it('keeps a file that collides with a built-in skipped, and never removes the built-in', async () => {
    const dir = await tempDir();
    const registry = new CommandRegistry();
    const builtin = registry.register({ name: 'model', description: 'Built-in', run: builtinRun });
    const { commands, warnings } = setup([dir], { registry, debounceMs: 20 });
    await commands.load();
    await commands.watch();

    await writeFile(path.join(dir, 'model.md'), file('Custom'));
    await writeFile(path.join(dir, 'marker.md'), file('Marker'));
    await waitFor(() => registry.has('marker'));
    await waitFor(() => warnings().some((warning) => warning.file.endsWith('model.md')));
    expect(registry.get('model')).toBe(builtin);

    await unlink(path.join(dir, 'model.md'));
    await unlink(path.join(dir, 'marker.md'));
    await waitFor(() => !registry.has('marker'));
    expect(registry.get('model')).toBe(builtin);
  });

  it('never removes a command that someone else re-registered under its name', async () => {
    const dir = await tempDir();
    const target = path.join(dir, 'mine.md');
    await writeFile(target, file('Mine'));
    const { registry, commands } = setup([dir], { debounceMs: 20 });
    await commands.load();
    await commands.watch();
    registry.unregister('mine');
    const theirs = registry.register({ name: 'mine', description: 'Theirs', run: builtinRun });

    await writeFile(path.join(dir, 'marker.md'), file('Marker'));
    await unlink(target);
    await waitFor(() => registry.has('marker'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(registry.get('mine')).toBe(theirs);
    expect(commands.names()).toEqual(['marker']);
  });

  it('watches several directories, the first still winning', async () => {
    const first = await tempDir();
    const second = await tempDir();
    const { registry, commands } = setup([first, second], { debounceMs: 20 });
    await commands.load();
    await commands.watch();

    await writeFile(path.join(second, 'dup.md'), file('Second'));
    await waitFor(() => registry.get('dup')?.description === 'Second');
    await writeFile(path.join(first, 'dup.md'), file('First'));
    await waitFor(() => registry.get('dup')?.description === 'First');
    await unlink(path.join(first, 'dup.md'));
    await waitFor(() => registry.get('dup')?.description === 'Second');
  });

  it('ignores symlinks and files in subdirectories that appear later', async () => {
    const dir = await tempDir();
    const outside = await tempDir();
    await writeFile(path.join(outside, 'secret.md'), file('Secret'));
    await mkdir(path.join(dir, 'sub'));
    const { registry, commands, warnings } = setup([dir], { debounceMs: 20 });
    await commands.load();
    await commands.watch();

    await symlink(path.join(outside, 'secret.md'), path.join(dir, 'leak.md'));
    await writeFile(path.join(dir, 'sub', 'deep.md'), file('Deep'));
    await writeFile(path.join(dir, 'marker.md'), file('Marker'));
    await waitFor(() => registry.has('marker'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(registry.has('leak')).toBe(false);
    expect(registry.has('deep')).toBe(false);
    await commands.load(); // whether or not the watcher reported the link, a rescan sees it
    expect(registry.has('leak')).toBe(false);
    expect(warnings()).toEqual([
      { file: path.join(dir, 'leak.md'), reason: 'symbolic links are not followed' },
    ]);
  });

  it('picks up files written between load() and watch()', async () => {
    const dir = await tempDir();
    const { registry, commands } = setup([dir]);
    await commands.load();
    await writeFile(path.join(dir, 'between.md'), file('Between'));
    await commands.watch();
    expect(registry.has('between')).toBe(true);
  });

  it('close() stops watching and removes only its own commands', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'own.md'), file('Own'));
    const registry = new CommandRegistry();
    registry.register({ name: 'help', description: 'Built-in', run: builtinRun });
    const { commands } = setup([dir], { registry, debounceMs: 20 });
    await commands.load();
    await commands.watch();
    await commands.close();
    expect(registry.list().map((command) => command.name)).toEqual(['help']);

    await writeFile(path.join(dir, 'late.md'), file('Late'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(registry.has('late')).toBe(false);
    await commands.load();
    expect(registry.has('late')).toBe(false);
  });
});
