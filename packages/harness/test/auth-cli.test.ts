/**
 * API keys from the command line: `serve` reads HARNESS_API_KEYS and
 * `--api-keys <file>`; `send` and `chat` pass `--api-key` (or A2A_API_KEY) and
 * say plainly when an agent wants a key they do not have.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc, userText } from 'a2a-testing/http';
import { bundledHarnessCli } from 'a2a-testing/harness-cli';
import { spawnHarness, type HarnessProcess } from 'a2a-testing/process';
import { runSend } from 'a2a-testing/send-cli';

const execFileAsync = promisify(execFile);
const CLI = [bundledHarnessCli()];
const ENV_KEY = 'env-key-0123456789abcdef';
const FILE_KEY = 'file-key-0123456789abcdef';

let server: HarnessProcess;
beforeAll(async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-keys-'));
  const keyFile = path.join(dir, 'keys.txt');
  writeFileSync(keyFile, `# operators\nbob=${FILE_KEY}\n`);
  server = await spawnHarness(['--data', dir, '--api-keys', keyFile], {
    HARNESS_API_KEYS: `alice=${ENV_KEY}`,
  });
});
afterAll(async () => {
  server.child.kill('SIGTERM');
  await server.exited;
});

describe('a2a-harness serve with keys', () => {
  it('takes keys from both HARNESS_API_KEYS and --api-keys, and logs who has one', async () => {
    const started = server.logs.find((l) => String(l.msg).startsWith('API keys required'));
    expect(started?.principals).toEqual(['alice', 'bob']);
    for (const key of [ENV_KEY, FILE_KEY]) {
      const { status, body } = await rpc(
        server.url,
        'SendMessage',
        { message: userText('/help') },
        { headers: { authorization: `Bearer ${key}` } },
      );
      expect(status).toBe(200);
      expect(body.result.task.status.message.metadata).toEqual({ command: 'help' });
    }
    expect((await rpc(server.url, 'SendMessage', { message: userText('/help') })).status).toBe(401);
  });

  it('never writes a key to its log', () => {
    const logged = JSON.stringify(server.logs);
    expect(logged).not.toContain(ENV_KEY);
    expect(logged).not.toContain(FILE_KEY);
  });

  it('refuses to start on a bad key file, naming the line and not the key', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-keys-'));
    const keyFile = path.join(dir, 'keys.txt');
    writeFileSync(keyFile, 'alice=fine-key-0123456789\nbob secret-value\n');
    const failed = await execFileAsync(process.execPath, [
      ...CLI,
      'serve',
      '--port',
      '0',
      '--data',
      dir,
      '--api-keys',
      keyFile,
    ]).then(
      () => expect.fail('started'),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain(`${keyFile}:2: expected principal=key`);
    expect(failed.stdout + failed.stderr).not.toContain('secret-value');
  });

  it('refuses a key named "unknown": that name owns the tasks made without keys', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-keys-'));
    // A task made while the server ran without keys belongs to the anonymous owner.
    const open = await spawnHarness(['--data', dir]);
    const made = await rpc(open.url, 'SendMessage', { message: userText('/title Anonymous') });
    expect(made.body.result.task.id).toBeTruthy();
    open.child.kill('SIGTERM');
    await open.exited;
    const failed = await execFileAsync(
      process.execPath,
      [...CLI, 'serve', '--port', '0', '--data', dir],
      { env: { ...process.env, HARNESS_API_KEYS: `unknown=${'k'.repeat(32)}` } },
    ).then(
      () => expect.fail('started'),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('is reserved: it owns the tasks made without keys');
    expect(failed.stdout + failed.stderr).not.toContain('k'.repeat(32));
  });
});

describe('a2a-harness send to an agent that wants a key', () => {
  it('without a key: exits 1 and says how to give one', async () => {
    const { stderr, code } = await runSend(server.url, '/help');
    expect(code).toBe(1);
    expect(stderr).toBe(
      `a2a-harness send: The agent at ${server.url} needs an API key: pass --api-key <key> or set A2A_API_KEY.\n`,
    );
  });

  it('with --api-key: the reply', async () => {
    const { stdout, code } = await runSend(server.url, '/help', '--api-key', ENV_KEY);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Commands:\n\/help/);
  });

  it('with A2A_API_KEY: the reply', async () => {
    process.env.A2A_API_KEY = FILE_KEY;
    try {
      const { stdout, code } = await runSend(server.url, '/help');
      expect(code).toBe(0);
      expect(stdout).toMatch(/^Commands:\n\/help/);
    } finally {
      delete process.env.A2A_API_KEY;
    }
  });

  it('with a wrong key: exits 1 and says the agent refused it', async () => {
    const { stderr, code } = await runSend(server.url, '/help', '--api-key', 'wrong-key');
    expect(code).toBe(1);
    expect(stderr).toBe(`a2a-harness send: The agent at ${server.url} refused the API key.\n`);
    expect(stderr).not.toContain('wrong-key');
  });
});
