/**
 * Log lines, against the real CLI in a child process: what the server
 * writes is JSON log lines only, and the SDK's console output for refused
 * requests (no A2A-Version, a refused stream) is neither raw text on stderr
 * nor logged as an error.
 */
import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { spawnHarness, type HarnessProcess } from 'a2a-testing/process';

let server: HarnessProcess;
let stdout = '';
let stderr = '';

beforeAll(async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'a2a-log-lines-'));
  server = await spawnHarness(['--data', dir, '--log-level', 'debug']);
  server.child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  server.child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
});

afterAll(async () => {
  server.child.kill('SIGTERM');
  await server.exited;
});

it('every line is a JSON log line, and refused requests are not logged as errors', async () => {
  const post = (headers: Record<string, string>, body: unknown) =>
    fetch(`${server.url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  // A version nobody serves (0.3 and 1.0 are): the SDK refuses it, and printed a stack trace to stderr.
  const unversioned = await post(
    { 'A2A-Version': '9.9' },
    { jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} },
  );
  expect((await unversioned.json()).error.code).toBe(-32009);
  // A stream refused before its first event: the SDK printed "Pre-stream error".
  const refused = await post(
    { 'A2A-Version': '1.0', 'X-Request-Id': 'refused-stream' },
    {
      jsonrpc: '2.0',
      id: 2,
      method: 'SendStreamingMessage',
      params: { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: ' ' }] } },
    },
  );
  expect((await refused.json()).error.code).toBe(-32602);
  // Its last line: everything the two requests logged is out by then, in order.
  await server.logLine(
    (line) => line.requestId === 'refused-stream' && String(line.msg).startsWith('request '),
  );

  expect(stderr).toBe('');
  const lines = stdout.split('\n').filter((line) => line !== '');
  expect(lines.length).toBeGreaterThan(0);
  const entries = lines.map((line) => JSON.parse(line) as Record<string, any>);
  for (const entry of entries) expect(typeof entry.level).toBe('number');
  const fromSdk = entries.filter((entry) => entry.source === 'console');
  expect(fromSdk.map((entry) => entry.msg).join('\n')).toMatch(/Unhandled error|Pre-stream error/);
  for (const entry of fromSdk) expect(entry.level).toBeLessThan(40);
});
