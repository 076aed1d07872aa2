/**
 * Property tests of the A2A surface against a running harness over real HTTP:
 * fast-check sends generated requests, malformed, mistyped, deeply nested,
 * oversize or full of escape sequences, and every answer must be a
 * well-formed protocol response; the server must answer a normal `/help` and
 * a normal message afterwards. Requests go out in batches of 8 at once.
 */
import http from 'node:http';
import { inspect } from 'node:util';
import { gzipSync } from 'node:zlib';
import { SendMessageResponse, StreamResponse } from '@a2a-js/sdk';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sendOutcome } from 'a2a-terminal-chat';
import { applyEvent, type Entry } from 'a2a-terminal-chat/ui';
import {
  deepJson,
  envelope,
  KNOWN_METHODS,
  nastyText,
  numberLiteral,
  sendParams,
  trickyJson,
  validIdOf,
} from 'a2a-testing/protocol-arbitraries';
import { rpc, userText } from 'a2a-testing/http';
import { startHarness, type TestHarness } from 'a2a-testing/harness';

const BATCH = 8;
const MIB = 1024 * 1024;
/** No answer may take longer than this: a slower one counts as a hang. */
const ANSWER_WITHIN_MS = 20_000;

let harness: TestHarness;
/** Tasks that exist, for generated requests to name: idle ones, and a canceled one. */
const taskIds: string[] = [];
const sent = { jsonRpc: 0, rest: 0 };

beforeAll(async () => {
  // The SDK logs every refused request with console.error: thousands of lines here.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  harness = await startHarness();
  for (const text of ['/help', '/title a task', 'hello', 'to be canceled']) {
    const { body } = await rpc(harness.url, 'SendMessage', { message: userText(text) });
    taskIds.push(body.result.task.id);
  }
  await rpc(harness.url, 'CancelTask', { id: taskIds.at(-1) });
});
afterAll(async () => {
  agent.destroy();
  await harness.stop();
  vi.restoreAllMocks();
});

interface Answer {
  status: number;
  contentType: string;
  text: string;
  /** The data of each SSE event, parsed, when the answer is an event stream. */
  events?: unknown[];
}

const DEFAULT_HEADERS = { 'content-type': 'application/json', 'A2A-Version': '1.0' };

/** Keep-alive connections for the generated requests: node:http costs less CPU than fetch. */
const agent = new http.Agent({ keepAlive: true, maxSockets: BATCH });

/** One request, read to its end (a SubscribeToTask stream: to its first event). */
function request(
  path: string,
  body: string | Uint8Array | undefined,
  options: { method?: string; headers?: Record<string, string>; firstEventOnly?: boolean } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sending = http.request(`${harness.url}${path}`, {
      method: options.method ?? 'POST',
      // A length always: without one, node:http sends a DELETE's body unframed.
      headers: {
        ...(options.headers ?? DEFAULT_HEADERS),
        ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
      },
      agent,
      signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
    });
    sending.on('error', reject);
    sending.on('response', (response) => {
      const contentType = response.headers['content-type'] ?? '';
      const stream = contentType.startsWith('text/event-stream');
      const chunks: Buffer[] = [];
      const done = () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const status = response.statusCode ?? 0;
        resolve({ status, contentType, text, ...(stream ? { events: sseEvents(text) } : {}) });
      };
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (stream && options.firstEventOnly && Buffer.concat(chunks).includes('\n\n')) {
          response.destroy();
          done();
        }
      });
      response.on('end', done);
      response.on('error', reject);
    });
    sending.end(body);
  });
}

/** Each event must be `data:` lines of JSON, and nothing else; a cut-off tail is dropped. */
function sseEvents(text: string): unknown[] {
  return text
    .slice(0, text.lastIndexOf('\n\n') + 2)
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n').filter((line) => line !== '' && !line.startsWith(':'));
      const stray = lines.filter((line) => !/^(data|event|id|retry):/.test(line));
      if (stray.length > 0) expect(stray, 'lines of an SSE event that are not fields').toEqual([]);
      const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart());
      return JSON.parse(data.join('\n'));
    });
}

/*
 * The checks below run on every answer, over ten thousand of them: each lists
 * what is wrong with the answer, and the answer takes one `expect` of that
 * list, which names every fault at once when there is one. An `expect` per
 * property was a fifth of this file's CPU.
 */

/** A stack trace or a path in an error message says too much. */
function internalsIn(message: string): string[] {
  return /\n\s+at |node_modules|file:\/\/|\/work\/|\/home\//.test(message)
    ? [`the message shows internals: ${inspect(message)}`]
    : [];
}

interface Expectation {
  /** The id the answer must carry: the request's, when it had a valid one and was read. */
  id?: string | number;
  /** Whether the body was over limits.bodyBytes, so that it was never read. */
  oversize?: boolean;
}

const ENVELOPE_MEMBERS = ['jsonrpc', 'id', 'result', 'error'];

/** What keeps `value` from being a JSON-RPC 2.0 response: the version, an id, exactly one of result and error. */
function envelopeFaults(value: unknown, expected: Expectation): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [`not a JSON object: ${inspect(value)}`];
  }
  const response = value as Record<string, unknown>;
  const faults: string[] = [];
  const extra = Object.keys(response).filter((key) => !ENVELOPE_MEMBERS.includes(key));
  if (extra.length > 0) faults.push(`members other than ${ENVELOPE_MEMBERS.join(', ')}: ${extra}`);
  if (response.jsonrpc !== '2.0') faults.push(`jsonrpc is ${inspect(response.jsonrpc)}, not '2.0'`);
  if ('result' in response === 'error' in response)
    faults.push('not exactly one of result and error');
  if (!(response.id === null || ['string', 'number'].includes(typeof response.id))) {
    faults.push(`the id is ${inspect(response.id)}`);
  }
  // -0 + 0 is 0: JSON has one zero.
  const echoed = typeof expected.id === 'number' ? expected.id + 0 : expected.id;
  if (echoed !== undefined && !expected.oversize && !Object.is(response.id, echoed)) {
    faults.push(`the id is ${inspect(response.id)}, not the request's ${inspect(echoed)}`);
  }
  if ('error' in response) {
    const error = (response.error ?? {}) as Record<string, unknown>;
    if (!Number.isInteger(error.code)) faults.push(`the error code is ${inspect(error.code)}`);
    if (typeof error.message !== 'string') {
      faults.push(`the error message is ${inspect(error.message)}`);
    } else {
      faults.push(...internalsIn(error.message));
    }
    // Nothing a client sends is the server's fault.
    if (error.code === -32603) faults.push('an internal error (-32603)');
  }
  return faults;
}

/** The answer, shortened, to name the one that failed. */
function described(answer: Answer): string {
  const text = answer.text.length > 600 ? `${answer.text.slice(0, 600)}…` : answer.text;
  return `the answer: ${answer.status} ${answer.contentType} ${text}`;
}

/** What every JSON-RPC answer must be: JSON (or SSE of JSON), never a server error. */
function expectRpcAnswer(answer: Answer, expected: Expectation): { result?: any; error?: any }[] {
  const faults: string[] = [];
  const statuses = expected.oversize ? [413] : [200, 400, 415];
  if (!statuses.includes(answer.status)) faults.push(`status ${answer.status}, not ${statuses}`);
  let envelopes: unknown[];
  if (answer.events) {
    if (answer.status !== 200) faults.push(`an event stream with status ${answer.status}`);
    if (answer.events.length === 0) faults.push('an event stream with no event');
    envelopes = answer.events;
  } else {
    if (!/^application\/json/.test(answer.contentType)) {
      faults.push(`content type ${inspect(answer.contentType)}`);
    }
    const body = parsedOrUndefined(answer.text);
    if (body === undefined) faults.push('the body is not JSON');
    envelopes = [body];
  }
  for (const envelope of envelopes) faults.push(...envelopeFaults(envelope, expected));
  if (answer.status === 413 && !answer.events) {
    const error = (envelopes[0] as { error?: { code?: unknown; message?: unknown } }).error;
    if (error?.code !== -32600) faults.push(`a 413 with the error code ${inspect(error?.code)}`);
    if (!String(error?.message).includes('a request can be at most')) {
      faults.push(`a 413 whose message does not give the limit: ${inspect(error?.message)}`);
    }
  }
  expect(faults, described(answer)).toEqual([]);
  return envelopes as { result?: any; error?: any }[];
}

function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Sends JSON-RPC body text and checks the answer against what the request was. */
async function sendRpc(
  body: string | Uint8Array,
  expected: Expectation = {},
  headers?: Record<string, string>,
) {
  sent.jsonRpc++;
  const parsed = typeof body === 'string' ? parsedOrUndefined(body) : undefined;
  const firstEventOnly = (parsed as { method?: unknown } | undefined)?.method === 'SubscribeToTask';
  const answer = await request('/a2a/jsonrpc', body, { headers, firstEventOnly });
  return expectRpcAnswer(answer, { id: validIdOf(parsed), ...expected });
}

/** Runs generated cases in batches of `BATCH` requests at once. */
async function inBatches<T>(
  arbitrary: fc.Arbitrary<T>,
  cases: number,
  check: (value: T) => Promise<unknown>,
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(fc.array(arbitrary, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
      const results = await Promise.allSettled(batch.map(check));
      const failed = results.findIndex((result) => result.status === 'rejected');
      if (failed === -1) return;
      // Name the one case that failed, not only its batch.
      const reason = (results[failed] as PromiseRejectedResult).reason as Error;
      reason.message = `${reason.message}\nfor the case ${inspect(batch[failed], { depth: 6 })}`;
      throw reason;
    }),
    { numRuns: Math.ceil(cases / BATCH) },
  );
}

/** No character a terminal acts on, but newline and tab. */
// eslint-disable-next-line no-control-regex -- naming those characters is the point
const INERT = /^[^\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]*$/;

function expectEntriesInert(entries: readonly Entry[]): void {
  for (const entry of entries) {
    expect(entry.text).toMatch(INERT);
    if (entry.kind === 'reply') expect(entry.command).toMatch(INERT);
  }
}

// Timeouts are generous: these runs take seconds on an idle machine, and must not fail on a busy one.
describe(
  'JSON-RPC: every generated request gets a well-formed JSON-RPC answer',
  { timeout: 180_000 },
  () => {
    it('malformed JSON text and bytes get a parse error (2,000 cases)', async () => {
      const text = fc.oneof(
        nastyText(80),
        fc.tuple(fc.json(), fc.nat()).map(([json, cut]) => json.slice(0, cut % (json.length + 1))),
        fc.tuple(fc.json(), nastyText(4)).map(([json, tail]) => json + tail),
        fc.constantFrom(
          '',
          '{',
          '{"jsonrpc":"2.0",}',
          "{'a':1}",
          '{"a":NaN}',
          '[1,]',
          '\ufeff{}',
          '{"a":1}//',
        ),
      );
      const bytes = fc.uint8Array({ maxLength: 64 });
      await inBatches(fc.oneof(text, bytes), 2_000, (body) => sendRpc(body));
    });

    it('valid JSON of the wrong shape, unknown methods and odd ids (3,300 cases)', async () => {
      const body = fc.oneof(
        { weight: 6, arbitrary: envelope(taskIds) },
        trickyJson,
        fc.array(envelope(taskIds), { maxLength: 3 }),
      );
      await inBatches(body, 3_300, (value) => sendRpc(JSON.stringify(value)));
    });

    it('SendMessage and SendStreamingMessage with params of every wrong type (2,400 cases)', async () => {
      const body = fc.record({
        jsonrpc: fc.constant('2.0'),
        id: fc.integer(),
        method: fc.constantFrom('SendMessage', 'SendStreamingMessage'),
        params: sendParams(taskIds),
      });
      await inBatches(body, 2_400, (value) => sendRpc(JSON.stringify(value)));
    });

    it('deep nesting, up to 5,000 levels, anywhere in the request (300 cases)', async () => {
      const where = fc.constantFrom(
        'id',
        'method',
        'params',
        'metadata',
        'data',
        'taskId',
        'whole',
      );
      await inBatches(fc.tuple(deepJson, where, fc.integer()), 300, async ([deep, place, rid]) => {
        const message = (extra: string, partExtra = '') =>
          `{"messageId":"m-${rid}","role":"ROLE_USER","parts":[{"text":"deep"${partExtra}}]${extra}}`;
        const body = {
          id: `{"jsonrpc":"2.0","id":${deep.text},"method":"GetTask","params":{"id":"x"}}`,
          method: `{"jsonrpc":"2.0","id":${rid},"method":${deep.text},"params":{}}`,
          params: `{"jsonrpc":"2.0","id":${rid},"method":"GetTask","params":${deep.text}}`,
          metadata: `{"jsonrpc":"2.0","id":${rid},"method":"SendMessage","params":{"message":${message(`,"metadata":{"d":${deep.text}}`)}}}`,
          data: `{"jsonrpc":"2.0","id":${rid},"method":"SendMessage","params":{"message":${message('', `,"data":${deep.text}`)}}}`,
          taskId: `{"jsonrpc":"2.0","id":${rid},"method":"SendMessage","params":{"message":${message(`,"taskId":${deep.text}`)}}}`,
          whole: deep.text,
        }[place];
        const [answer] = await sendRpc(body);
        // How deep the generated value sits in the request.
        const above = { id: 1, method: 1, params: 1, metadata: 4, data: 5, taskId: 3, whole: 0 }[
          place
        ];
        if (place !== 'id' && deep.depth + above > 100) {
          expect(answer!.error?.message).toMatch(/more than 100 levels deep/);
        }
      });
    });

    it('ids and numbers JSON.stringify cannot write: 1e308, -0, 2^64, big integers (800 cases)', async () => {
      const where = fc.constantFrom('id', 'historyLength', 'metadata', 'pageSize');
      await inBatches(fc.tuple(numberLiteral, where, fc.integer()), 800, ([number, place, rid]) => {
        const body = {
          id: `{"jsonrpc":"2.0","id":${number},"method":"GetTask","params":{"id":"${taskIds[0]}"}}`,
          historyLength: `{"jsonrpc":"2.0","id":${rid},"method":"GetTask","params":{"id":"${taskIds[0]}","historyLength":${number}}}`,
          metadata: `{"jsonrpc":"2.0","id":${rid},"method":"SendMessage","params":{"message":{"messageId":"n-${rid}","role":"ROLE_USER","parts":[{"text":"/status"}],"metadata":{"n":${number}}}}}`,
          pageSize: `{"jsonrpc":"2.0","id":${rid},"method":"ListTasks","params":{"pageSize":${number}}}`,
        }[place];
        return sendRpc(body);
      });
    });

    it('commands and messages with escape sequences, control characters and lone surrogates (800 cases): answered, and inert once the terminal shows them', async () => {
      const name = fc.constantFrom(
        'help',
        'title',
        'model',
        'status',
        'system',
        'clear',
        'tasks',
        'fork',
        'spawn',
        'nope',
      );
      const text = fc.oneof(
        {
          weight: 4,
          arbitrary: fc.tuple(name, nastyText(120)).map(([n, args]) => `/${n} ${args}`),
        },
        // A blank message is refused (nothing for the model), so ordinary messages have text.
        nastyText(120).filter((t) => t.trim() !== ''),
        fc.constant('/title \u001b]0;x\u0007'),
      );
      const streaming = fc.boolean();
      await inBatches(fc.tuple(text, streaming, fc.integer()), 800, async ([t, stream, rid]) => {
        const body = JSON.stringify({
          jsonrpc: '2.0',
          id: rid,
          method: stream ? 'SendStreamingMessage' : 'SendMessage',
          params: { message: userText(t) },
        });
        const answers = await sendRpc(body);
        for (const answer of answers) expect(answer.error).toBeUndefined();
        if (stream) {
          let entries: Entry[] = [];
          for (const answer of answers)
            entries = applyEvent(entries, StreamResponse.fromJSON(answer.result));
          expectEntriesInert(entries);
        } else {
          const response = SendMessageResponse.fromJSON(answers[0]!.result);
          const payload = response.payload!;
          expect(payload.$case).toBe('task');
          expect(sendOutcome(payload.value).text).toMatch(INERT);
        }
      });
    });

    it('other content types, charsets, encodings and versions (400 cases)', async () => {
      const headers = fc.record({
        'content-type': fc.constantFrom(
          'application/json',
          'application/json; charset=utf-8',
          'application/json; charset=latin1',
          'application/json; charset=utf-16',
          'application/a2a+json',
          'text/plain',
          'application/x-www-form-urlencoded',
        ),
        'content-encoding': fc.constantFrom('identity', 'gzip', 'deflate', 'br', 'compress'),
        'A2A-Version': fc.constantFrom('1.0', '0.3', '2.0', '', 'x'),
      });
      const body = fc
        .tuple(fc.constantFrom(0, '', 7, 'id'), fc.constantFrom(...KNOWN_METHODS))
        .map(([rid, m]) =>
          JSON.stringify({ jsonrpc: '2.0', id: rid, method: m, params: { id: 'x' } }),
        );
      await inBatches(fc.tuple(headers, body, fc.boolean()), 400, ([h, b, zipped]) => {
        const gzipped = zipped && h['content-encoding'] === 'gzip';
        // Only a body the server can read has an id it can echo.
        const readable =
          /^application\/json(; charset=utf-8)?$/.test(h['content-type']) &&
          (h['content-encoding'] === 'identity' || gzipped);
        const echo = readable ? validIdOf(JSON.parse(b)) : undefined;
        return sendRpc(gzipped ? gzipSync(b) : b, { id: echo }, h);
      });
    });

    it('bodies over limits.bodyBytes, plain or as a gzip bomb, get 413 with a JSON-RPC error (16 cases)', async () => {
      const size = fc.integer({ min: MIB + 1, max: 3 * MIB });
      await fc.assert(
        fc.asyncProperty(size, fc.boolean(), async (bytes, bomb) => {
          const payload = `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"metadata":"${'x'.repeat(bytes)}"}}}`;
          if (bomb) {
            await sendRpc(
              gzipSync(payload),
              { oversize: true },
              { ...DEFAULT_HEADERS, 'content-encoding': 'gzip' },
            );
          } else {
            await sendRpc(payload, { oversize: true });
          }
        }),
        { numRuns: 16 },
      );
    });

    it('still answers a normal /help and a normal message, having answered at least 10,000 cases', async () => {
      expect(sent.jsonRpc).toBeGreaterThanOrEqual(10_000);
      const help = await rpc(harness.url, 'SendMessage', { message: userText('/help') });
      expect(help.body.result.task.status.message.metadata).toEqual({ command: 'help' });
      const hello = await rpc(harness.url, 'SendMessage', { message: userText('hello again') });
      expect(hello.body.result.task.status.message.parts[0].text).toContain(
        'You said: hello again',
      );
    });
  },
);

/** A URL component of any text: lone surrogates, which URLs cannot carry, become U+FFFD. */
function encodeSegment(text: string): string {
  const wellFormed = text.replace(
    /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    '\ufffd',
  );
  return encodeURIComponent(wellFormed);
}

describe(
  'HTTP+JSON: every generated request gets the protocol error body or a result',
  { timeout: 180_000 },
  () => {
    /** The SDK's error body: `{error: {code, status, message, details}}`, code = HTTP status. */
    /** The problem+JSON-like error of HTTP+JSON: `{error: {code, status, message, details}}`. */
    function restAnswerFaults(answer: Answer): string[] {
      if (answer.status >= 500) return [`status ${answer.status}`];
      if (answer.events) {
        const notObjects = answer.events.filter((event) => typeof event !== 'object');
        return [
          ...(answer.status === 200 ? [] : [`an event stream with status ${answer.status}`]),
          ...notObjects.map((event) => `an event that is not an object: ${inspect(event)}`),
        ];
      }
      if (answer.status === 204) return [];
      if (!/^application\/(a2a\+)?json/.test(answer.contentType)) {
        return [`content type ${inspect(answer.contentType)}`];
      }
      const body = parsedOrUndefined(answer.text) as any;
      if (body === undefined) return ['the body is not JSON'];
      if (answer.status < 400) return typeof body === 'object' ? [] : ['the body is not an object'];
      const faults: string[] = [];
      const keys = body !== null && typeof body === 'object' ? Object.keys(body) : [];
      if (keys.length !== 1 || keys[0] !== 'error') faults.push(`members ${inspect(keys)}`);
      const error = body?.error ?? {};
      if (error.code !== answer.status) faults.push(`the error code ${inspect(error.code)}`);
      if (typeof error.status !== 'string')
        faults.push(`the error status ${inspect(error.status)}`);
      if (!Array.isArray(error.details)) faults.push(`the details ${inspect(error.details)}`);
      if (typeof error.message !== 'string') {
        faults.push(`the error message ${inspect(error.message)}`);
      } else {
        faults.push(...internalsIn(error.message));
      }
      return faults;
    }

    function expectRestAnswer(answer: Answer): void {
      expect(restAnswerFaults(answer), described(answer)).toEqual([]);
    }

    it('generated operations, paths and bodies (2,000 cases)', async () => {
      const segment = fc.oneof(
        fc.constantFrom(...taskIds).map(encodeSegment),
        nastyText(12).map(encodeSegment),
        // Not '..': the client resolves it, and the request leaves the A2A path.
        fc.constantFrom('%', '%zz', '%00', '%2F', 'a%ZZb', '', '.'),
      );
      const body = fc.oneof(
        sendParams(taskIds).map((value) => JSON.stringify(value)),
        trickyJson.map((value) => JSON.stringify(value)),
        nastyText(40),
        fc.constant(undefined),
      );
      const get = (path: fc.Arbitrary<string>) =>
        fc.record({ method: fc.constant('GET'), path, body: fc.constant(undefined) });
      const post = (path: fc.Arbitrary<string>) =>
        fc.record({ method: fc.constant('POST'), path, body });
      const operation = fc.oneof(
        { weight: 3, arbitrary: post(fc.constantFrom('/message:send', '/message:stream')) },
        post(segment.map((tenant) => `/${tenant}/message:send`)),
        get(segment.map((s) => `/tasks/${s}`)),
        get(
          fc
            .tuple(segment, nastyText(6))
            .map(([s, q]) => `/tasks/${s}?historyLength=${encodeSegment(q)}`),
        ),
        post(segment.map((s) => `/tasks/${s}:cancel`)),
        get(segment.map((s) => `/tasks/${s}:subscribe`)),
        get(
          fc
            .tuple(nastyText(6), nastyText(6), nastyText(6))
            .map(
              ([size, status, history]) =>
                `/tasks?pageSize=${encodeSegment(size)}&status=${encodeSegment(status)}&historyLength=${encodeSegment(history)}`,
            ),
        ),
        fc.record({
          method: fc.constantFrom('PUT', 'DELETE', 'PATCH', 'POST'),
          path: fc.tuple(segment, segment).map(([a, b]) => `/${a}/${b}`),
          body,
        }),
        get(fc.tuple(segment, segment).map(([a, b]) => `/${a}/${b}`)),
      );
      const contentType = fc.constantFrom('application/json', 'application/a2a+json', 'text/plain');
      await inBatches(fc.tuple(operation, contentType), 2_000, async ([op, type]) => {
        sent.rest++;
        const answer = await request(`/a2a/rest${op.path}`, op.body, {
          method: op.method,
          headers: { 'content-type': type, 'A2A-Version': '1.0' },
          firstEventOnly: true,
        });
        expectRestAnswer(answer);
      });
    });

    it('still answers a normal /help on HTTP+JSON afterwards', async () => {
      expect(sent.rest).toBeGreaterThanOrEqual(2_000);
      const response = await fetch(`${harness.url}/a2a/rest/message:send`, {
        method: 'POST',
        headers: DEFAULT_HEADERS,
        body: JSON.stringify({ message: userText('/help') }),
      });
      expect(response.status).toBe(200);
      expect((await response.json()).task.status.message.metadata).toEqual({ command: 'help' });
    });
  },
);
