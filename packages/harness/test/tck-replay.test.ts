/**
 * The six cases that the official A2A TCK once failed here,
 * replayed as the raw HTTP requests curl sends, against a real server on
 * loopback: a JSON-RPC envelope that is not a Request object is -32600, and
 * ListTasks refuses an unknown status and timestamps that are not RFC 3339,
 * on JSON-RPC and HTTP+JSON alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from 'a2a-testing/raw-http';
import { startHarness, type TestHarness } from 'a2a-testing/harness';

let harness: TestHarness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.stop());

const JSON_HEADERS = { 'content-type': 'application/json', 'A2A-Version': '1.0' };

/** `curl -s -X POST $URL/a2a/jsonrpc -H 'content-type: application/json' -H 'A2A-Version: 1.0' -d BODY` */
async function curlJsonRpc(body: string) {
  const response = await rawRequest(harness.url, 'POST', '/a2a/jsonrpc', JSON_HEADERS, body);
  return { status: response.status, json: JSON.parse(response.body) };
}

/** `curl -s "$URL/a2a/rest/tasks?QUERY" -H 'A2A-Version: 1.0'` */
async function curlListTasks(query: string) {
  const response = await rawRequest(harness.url, 'GET', `/a2a/rest/tasks?${query}`, {
    'A2A-Version': '1.0',
  });
  return { status: response.status, json: JSON.parse(response.body) };
}

describe('TCK: a JSON-RPC body that is not a Request object is -32600 Invalid Request', () => {
  const cases: [string, string, string | number | null][] = [
    [
      'jsonrpc "aaa" on SendMessage',
      '{"jsonrpc":"aaa","method":"SendMessage","params":{},"id":"e1"}',
      'e1',
    ],
    [
      'jsonrpc "aaa" on GetTask',
      '{"jsonrpc":"aaa","method":"GetTask","params":{"id":"t"},"id":2}',
      2,
    ],
    ['no method, with params', '{"jsonrpc":"2.0","params":{},"id":"e3"}', 'e3'],
    ['no method, no params', '{"jsonrpc":"2.0","id":4}', 4],
  ];
  it.each(cases)('%s', async (_name, body, id) => {
    const { status, json } = await curlJsonRpc(body);
    expect(status).toBe(200);
    expect(json.id).toBe(id);
    expect(json.error.code).toBe(-32600);
    expect(json.result).toBeUndefined();
  });
});

describe('TCK: ListTasks refuses an unknown status', () => {
  it('on JSON-RPC: -32602', async () => {
    const { json } = await curlJsonRpc(
      '{"jsonrpc":"2.0","method":"ListTasks","params":{"status":"INVALID_STATUS"},"id":"s1"}',
    );
    expect(json.error).toMatchObject({ code: -32602 });
    expect(json.error.message).toMatch(/status/);
  });

  it('on HTTP+JSON: 400 INVALID_ARGUMENT', async () => {
    const { status, json } = await curlListTasks('status=INVALID_STATUS');
    expect(status).toBe(400);
    expect(json.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
  });

  it('a known status is still accepted', async () => {
    const { json } = await curlJsonRpc(
      '{"jsonrpc":"2.0","method":"ListTasks","params":{"status":"TASK_STATE_WORKING"},"id":"s2"}',
    );
    expect(json.error).toBeUndefined();
    expect(json.result.tasks).toEqual([]);
  });
});

describe('TCK: ListTasks refuses timestamps that are not RFC 3339', () => {
  const bad = ['-1', '2024', 'Dec 1', '1/2/3', '2024-02-30T00:00:00Z', '2024-01-01 00:00:00'];
  it.each(bad)('%j on JSON-RPC: -32602', async (timestamp) => {
    const { json } = await curlJsonRpc(
      JSON.stringify({
        jsonrpc: '2.0',
        method: 'ListTasks',
        params: { statusTimestampAfter: timestamp },
        id: 't',
      }),
    );
    expect(json.error).toMatchObject({ code: -32602 });
    expect(json.error.message).toMatch(/RFC 3339/);
  });

  it.each(bad)('%j on HTTP+JSON: 400', async (timestamp) => {
    const { status, json } = await curlListTasks(
      `statusTimestampAfter=${encodeURIComponent(timestamp)}`,
    );
    expect(status).toBe(400);
    expect(json.error.message).toMatch(/RFC 3339/);
  });

  it.each(['2026-01-31T12:00:00Z', '2026-01-31T12:00:00.123+01:00'])(
    '%j is accepted',
    async (timestamp) => {
      const { status, json } = await curlListTasks(
        `statusTimestampAfter=${encodeURIComponent(timestamp)}`,
      );
      expect(status).toBe(200);
      expect(json.tasks).toEqual([]);
    },
  );
});
