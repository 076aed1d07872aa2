/**
 * One routing decision: every spelling Express routes to an A2A operation
 * (any case, a trailing slash, a tenant, 0.3's names and paths) meets the same
 * input checks and spends the same rate limits as the plain spelling; a
 * spelling Express does not route (doubled slashes, a percent-encoded colon)
 * reaches no operation at all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeys, parseApiKeyList } from '../src/serve/api-keys.js';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { userText } from 'a2a-testing/http';

const KEYS = Array.from({ length: 100 }, (_, index) => `caller${index}-key-0123456789abcdef`);

let harness: TestHarness;
beforeAll(async () => {
  harness = await startHarness({
    apiKeys: new ApiKeys(parseApiKeyList(KEYS.map((key, index) => `p${index}=${key}`).join(','))),
    // One token a minute: a bucket spent here stays spent for the test.
    config: { limits: { commandsPerMinute: 1, commandBurst: 2, turnsPerMinute: 1, turnBurst: 1 } },
  });
});
afterAll(() => harness.stop());

let nextKey = 0;
const freshKey = () => KEYS[nextKey++]!;

interface Door {
  /** How the door is spelled, for the test's name. */
  name: string;
  /** Sends one message with these parts and answers the HTTP status. */
  send(key: string, parts: unknown[]): Promise<number>;
}

const V1 = { 'content-type': 'application/json', 'A2A-Version': '1.0' };
const V03 = { 'content-type': 'application/json' };

function restDoor(path: string, legacy = false): Door {
  return {
    name: `HTTP+JSON ${legacy ? '0.3 ' : ''}${path}`,
    async send(key, parts) {
      // 0.3's HTTP+JSON binding speaks protobuf JSON: the parts are `content`.
      const message = legacy
        ? { messageId: crypto.randomUUID(), role: 'ROLE_USER', content: parts }
        : { ...userText(''), parts };
      const response = await fetch(`${harness.url}${path}`, {
        method: 'POST',
        headers: { ...(legacy ? V03 : V1), authorization: `Bearer ${key}` },
        body: JSON.stringify({ message }),
      });
      await response.arrayBuffer();
      return response.status;
    },
  };
}

function rpcDoor(path: string, method: string): Door {
  const legacy = method.includes('/');
  return {
    name: `JSON-RPC ${path} ${method}`,
    async send(key, parts) {
      const message = legacy
        ? { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts }
        : { ...userText(''), parts };
      const response = await fetch(`${harness.url}${path}`, {
        method: 'POST',
        headers: { ...(legacy ? V03 : V1), authorization: `Bearer ${key}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { message } }),
      });
      const body = (await response.json()) as { error?: { code: number } };
      // JSON-RPC refuses bad params with 200 and -32602: report it as HTTP+JSON's 400.
      return body.error?.code === -32602 ? 400 : response.status;
    },
  };
}

const text = (value: unknown, rpcLegacy: boolean) =>
  rpcLegacy ? [{ kind: 'text', text: value }] : [{ text: value }];

const REST_SPELLINGS = [
  '/a2a/rest/message:send',
  '/a2a/rest/MESSAGE:SEND',
  '/a2a/rest/Message:Send',
  '/a2a/rest/message:send/',
  '/A2A/REST/message:send',
  '/a2a/rest/tenant-a/message:send',
  '/a2a/rest/Tenant-B/MESSAGE:Send/',
  // A percent-encoded tenant is a tenant: Express decodes it.
  '/a2a/rest/tenant%20c/message:send',
];
const LEGACY_REST_SPELLINGS = ['/a2a/rest/v1/message:send', '/a2a/rest/V1/Message:Send/'];
const RPC_SPELLINGS: [string, string][] = [
  ['/a2a/jsonrpc', 'SendMessage'],
  ['/A2A/JSONRPC', 'SendMessage'],
  ['/a2a/jsonrpc/', 'SendMessage'],
  ['/a2a/jsonrpc', 'message/send'],
  ['/a2a/jsonrpc/', 'message/send'],
];

const doors: { door: Door; legacy: boolean }[] = [
  ...REST_SPELLINGS.map((path) => ({ door: restDoor(path), legacy: false })),
  // 0.3 over HTTP+JSON: parts as 1.0 writes them, in `content`; answered 201.
  ...LEGACY_REST_SPELLINGS.map((path) => ({ door: restDoor(path, true), legacy: false })),
  ...RPC_SPELLINGS.map(([path, method]) => ({
    door: rpcDoor(path, method),
    legacy: method.includes('/'),
  })),
];

describe.each(doors)('$door.name', ({ door, legacy }) => {
  it('refuses a text part that is not a string', async () => {
    const key = freshKey();
    expect(await door.send(key, text({}, legacy))).toBe(400);
    expect(await door.send(key, text(5, legacy))).toBe(400);
    expect(await door.send(key, text(['/help'], legacy))).toBe(400);
  });

  it('spends the command limit: two commands, then 429', async () => {
    const key = freshKey();
    const ok = [200, 201];
    expect(ok).toContain(await door.send(key, text('/help', legacy)));
    expect(ok).toContain(await door.send(key, text('/help', legacy)));
    expect(await door.send(key, text('/help', legacy))).toBe(429);
  });

  it('spends the turn limit: one turn, then 429', async () => {
    const key = freshKey();
    const ok = [200, 201];
    expect(ok).toContain(await door.send(key, text('hello', legacy)));
    expect(await door.send(key, text('hello', legacy))).toBe(429);
  });
});

describe('spellings Express does not route', () => {
  it.each([
    '/a2a/rest//message:send',
    '/a2a/rest/message%3Asend',
    '/a2a/rest/%6Dessage:send',
    '/a2a/rest/tenant-a//message:send',
  ])('%s reaches no operation: 404, and no task is made', async (path) => {
    const key = freshKey();
    const status = await restDoor(path).send(key, text('hello', false));
    expect(status).toBe(404);
    const list = await fetch(`${harness.url}/a2a/rest/tasks`, {
      headers: { ...V1, authorization: `Bearer ${key}` },
    });
    expect(((await list.json()) as { tasks: unknown[] }).tasks).toEqual([]);
  });
});

describe('both doors of JSON-RPC', () => {
  it('charge one set of buckets: the lane (plain POST) and Express (a browser, any spelling)', async () => {
    const key = freshKey();
    const viaLane = rpcDoor('/a2a/jsonrpc', 'SendMessage');
    const viaExpress = rpcDoor('/A2A/JSONRPC', 'SendMessage');
    expect(await viaLane.send(key, text('/help', false))).toBe(200);
    expect(await viaExpress.send(key, text('/help', false))).toBe(200);
    expect(await viaLane.send(key, text('/help', false))).toBe(429);
    expect(await viaExpress.send(key, text('/help', false))).toBe(429);
  });
});
