/**
 * Each request log line names its request once: `requestId` appears a single
 * time in the JSON of every line, whether the request completed, was refused,
 * or its client left before the answer ended.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { rpc, userText, waitFor } from 'a2a-testing/http';

const raw: string[] = [];
let harness: TestHarness;
beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      raw.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  harness = await startHarness({
    logger: pino({ level: 'info' }, sink),
    config: { offline: { latencyMs: 40 } },
  });
});
afterAll(() => harness.stop());

const occurrences = (line: string) => line.split('"requestId"').length - 1;

it('one requestId a line: completed, refused and aborted requests', async () => {
  await rpc(harness.url, 'SendMessage', { message: userText('/help') });
  await rpc(harness.url, 'GetTask', { id: 'no-such-task' });
  // A stream whose client leaves mid-answer.
  const leaving = new AbortController();
  const stream = await fetch(`${harness.url}/a2a/jsonrpc`, {
    method: 'POST',
    signal: leaving.signal,
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendStreamingMessage',
      params: { message: userText(Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ')) },
    }),
  });
  await stream.body!.getReader().read();
  leaving.abort();
  await waitFor(
    async () => raw.some((line) => line.includes('request aborted')) || undefined,
    'the aborted line',
  );
  const requestLines = raw.filter((line) => line.includes('"requestId"'));
  expect(requestLines.length).toBeGreaterThanOrEqual(3);
  for (const line of requestLines) expect(occurrences(line), line).toBe(1);
});
