/**
 * Hostile commands, over real HTTP on loopback against a real
 * SQLite file: /fork cannot fill the disk past a per-owner quota, custom
 * command prompts obey limits.textChars, 2,000 command files load with a
 * bounded /help, and a hard-linked command file never reaches the card.
 */
import { linkSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { rpc, userText, waitFor } from 'a2a-testing/http';
import { startHarness, type TestHarness } from 'a2a-testing/harness';

let harness: TestHarness | undefined;
afterEach(async () => {
  await harness?.stop();
  harness = undefined;
});

function dataDirWith(files: Record<string, string>): string {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'a2a-hostile-'));
  mkdirSync(path.join(dataDir, 'commands'));
  for (const [name, content] of Object.entries(files))
    writeFileSync(path.join(dataDir, 'commands', name), content);
  return dataDir;
}

async function command(text: string, taskId?: string) {
  const sent = await rpc(harness!.url, 'SendMessage', {
    message: userText(text, taskId ? { taskId } : {}),
  });
  if (sent.body.error) throw new Error(`${sent.body.error.code}: ${sent.body.error.message}`);
  const task = sent.body.result.task;
  const parts = task.status.message.parts;
  return {
    task,
    text: parts.find((p: any) => 'text' in p)?.text as string,
    data: parts.find((p: any) => 'data' in p)?.data,
  };
}

async function cardCommands(): Promise<string[]> {
  const card = await (await fetch(`${harness!.url}/.well-known/agent-card.json`)).json();
  const extension = card.capabilities.extensions.find((e: any) => e.uri.includes('commands'));
  return extension.params.commands.map((c: any) => c.name);
}

describe('item 9: /fork cannot fill the disk', () => {
  it('20 concurrent forks store no more history than limits.historyCharsPerOwner allows', async () => {
    const quota = 200_000;
    harness = await startHarness({ config: { limits: { historyCharsPerOwner: quota } } });
    // About 40 KB of history: /help replies, each a few kilobytes.
    const first = await command('/help');
    const taskId = first.task.id;
    for (let i = 0; i < 9; i++) await command('/help', taskId);
    const forks = await Promise.all(
      Array.from({ length: 20 }, () =>
        rpc(harness!.url, 'SendMessage', { message: userText('/fork', { taskId }) }),
      ),
    );
    const made: string[] = [];
    const refused: string[] = [];
    for (const fork of forks) {
      // Every request is answered: a reply, or a clear protocol error.
      if (fork.body.error) {
        refused.push(fork.body.error.message);
        continue;
      }
      const data = fork.body.result.task.status.message.parts.find((p: any) => 'data' in p)?.data;
      if (data?.task_ref) made.push(data.task_ref);
      else refused.push(data?.error);
    }
    expect(made.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    for (const reason of refused) expect(reason).toMatch(/history_quota|characters of history/);
    const left = await harness.harness.store.historyQuotaLeft(
      (await import('../src/store/index.js')).ownerContext('unknown', ''),
    );
    expect(left).toBeGreaterThanOrEqual(0);
    // The refusal says why.
    const again = await command('/fork', taskId);
    expect(again.data.error).toBe('history_quota');
    expect(again.text).toMatch(
      /^No fork was made: it would copy [\d,]+ characters of history, and your tasks have room for [\d,]+ more\. /,
    );
    expect(again.text).not.toMatch(/limits\./);
  });
});

describe('item 9: the quota holds for concurrent forks of different tasks', () => {
  it('each fork is stored whole or refused with the limit named; the quota is never passed', async () => {
    const quota = 60_000;
    harness = await startHarness({ config: { limits: { historyCharsPerOwner: quota } } });
    const parents: string[] = [];
    for (let p = 0; p < 4; p++) {
      const first = await command('/help');
      await command('/help', first.task.id);
      parents.push(first.task.id);
    }
    const { ownerContext, storedChars } = await import('../src/store/index.js');
    const owner = ownerContext('unknown', '');
    const store = harness.harness.store;
    const storedBefore = quota - (await store.historyQuotaLeft(owner));
    // The smallest parent: every fork copies at least this much.
    const parentChars = Math.min(
      ...(await Promise.all(
        parents.map(async (id) => storedChars(await store.loadHistory(id, owner))),
      )),
    );
    expect(storedBefore + parentChars).toBeLessThan(quota);
    const forks = await Promise.all(
      parents.flatMap((taskId) =>
        Array.from({ length: 4 }, () =>
          rpc(harness!.url, 'SendMessage', { message: userText('/fork', { taskId }) }),
        ),
      ),
    );
    let made = 0;
    for (const fork of forks) {
      if (fork.body.error) {
        expect(fork.body.error.message).toMatch(
          /^Your tasks can keep at most 60,000 characters of history; /,
        );
        continue;
      }
      const data = fork.body.result.task.status.message.parts.find((p: any) => 'data' in p)?.data;
      if (data?.task_ref) made++;
      else expect(data?.error).toBe('history_quota');
    }
    expect(made).toBeGreaterThan(0);
    expect(made).toBeLessThan(16);
    // What the forks copied fits the quota. (The /fork messages and replies themselves are
    // ordinary history, which the quota does not refuse.)
    expect(storedBefore + made * parentChars).toBeLessThanOrEqual(quota);
  });
});

describe('item 11: custom command prompts obey limits.textChars', () => {
  it('a template that repeats $ARGUMENTS 5,000 times is refused, and no sub-task is made', async () => {
    const template = '$ARGUMENTS '.repeat(5000);
    harness = await startHarness({
      dataDir: dataDirWith({ 'blow.md': `---\ndescription: Blow up\n---\n${template}\n` }),
    });
    const before = (await rpc(harness.url, 'ListTasks', {})).body.result.totalSize;
    const reply = await command(`/blow ${'a'.repeat(2000)}`);
    expect(reply.data.error).toBe('prompt_too_long');
    expect(reply.text).toBe(
      '/blow would send a prompt of more than 100,000 characters, longer than a message can be; nothing was sent. Give shorter arguments.',
    );
    expect(JSON.stringify(reply.task).length).toBeLessThan(20_000);
    // Only the task that holds the command: no sub-task.
    expect((await rpc(harness.url, 'ListTasks', {})).body.result.totalSize).toBe(before + 1);
  });

  it('a long prompt within the limit starts its sub-task, and the reply does not echo all of it', async () => {
    harness = await startHarness({
      dataDir: dataDirWith({ 'say.md': `---\ndescription: Say it\n---\n$ARGUMENTS\n` }),
    });
    const reply = await command(`/say ${'b'.repeat(9000)}`);
    expect(reply.data.task_ref).toEqual(expect.any(String));
    expect(reply.data.prompt.length).toBeLessThanOrEqual(2000);
    expect(reply.data.prompt_truncated).toBe(true);
    // Up to the test's own timeout: waitFor's default of 200 tries is about 5 s, which a
    // sub-task's first turn can take on a loaded machine.
    const sub = await waitFor(
      async () => {
        const task = (await rpc(harness!.url, 'GetTask', { id: reply.data.task_ref })).body.result;
        return task.history?.length ? task : undefined;
      },
      'the sub-task',
      2000,
    );
    expect(sub.history[0].parts[0].text).toBe('b'.repeat(9000));
  });
});

describe('item 16: large command directories', () => {
  it('2,000 command files all register, and /help stays small with the full list in its data', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 2000; i++)
      files[`cmd-${String(i).padStart(4, '0')}.md`] =
        `---\ndescription: Command number ${i} ${'with a long description '.repeat(20)}\n---\nDo ${i}\n`;
    harness = await startHarness({ dataDir: dataDirWith(files) });
    expect((await cardCommands()).filter((name) => name.startsWith('cmd-'))).toHaveLength(2000);
    const help = await command('/help');
    expect(help.text.length).toBeLessThan(20_000);
    expect(help.text).toMatch(/and \d+ more/);
    expect(help.data.commands.length).toBeGreaterThan(2000);
    // Reading 2,000 files took 4 s alone, 10 s in a full run and 21 s beside a CPU burner.
  }, 180_000);
});

describe('item 17: a hard link gets past the symlink guard', () => {
  it('a command file hard-linked to a file outside the directory is skipped', async () => {
    const outside = mkdtempSync(path.join(os.tmpdir(), 'a2a-outside-'));
    const secret = path.join(outside, 'secret.md');
    writeFileSync(secret, '---\ndescription: SECRET FIRST LINE\n---\nroot:x:0:0\n');
    const dataDir = dataDirWith({ 'fine.md': '---\ndescription: Fine\n---\nHello\n' });
    linkSync(secret, path.join(dataDir, 'commands', 'leak.md'));
    harness = await startHarness({ dataDir });
    const names = await cardCommands();
    expect(names).toContain('fine');
    expect(names).not.toContain('leak');
    const card = await (await fetch(`${harness.url}/.well-known/agent-card.json`)).text();
    expect(card).not.toContain('SECRET FIRST LINE');
  });
});
