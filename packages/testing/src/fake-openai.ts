/**
 * A real HTTP server on 127.0.0.1 speaking the parts of the OpenAI API the harness uses,
 * so tests run the real `@ai-sdk/openai` client against it:
 *
 * - `GET /v1/models`: the model ids given at start (changeable with `setModels`).
 * - `POST /v1/chat/completions`: streaming (SSE chunks with `choices[0].delta.content`,
 *   a `finish_reason` chunk, a usage chunk when `stream_options.include_usage`, then
 *   `data: [DONE]`) and non-streaming.
 * - anything else (e.g. `POST /v1/responses`): 404 with an OpenAI-style error body.
 *
 * Every request is recorded in `requests`.
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. `/v1/chat/completions`. */
  path: string;
  /** Node's lower-cased request headers. */
  headers: IncomingHttpHeaders;
  /** The parsed JSON body; `undefined` when there was none or it was not JSON. */
  body: any;
}

export interface ChatRequestInfo {
  model: string;
  messages: any[];
  /** The text of the last `user` message. */
  lastUserText: string;
  body: any;
}

/**
 * - `silent`: never answers (headers included);
 * - `stall-after-first`: one content chunk, then nothing, connection open;
 * - `trickle`: a short content chunk every 100 ms, for good;
 * - `html`: a 200 with an HTML page instead of a stream;
 * - `cut`: the content, then the response ends with no finish and no [DONE].
 */
export type Misbehaviour = 'silent' | 'stall-after-first' | 'trickle' | 'html' | 'cut';

export type FakeReply = string | ((request: ChatRequestInfo) => string);

export interface FakeOpenAIOptions {
  /** Ids served by `GET /v1/models`. When non-empty, chat calls for other models get 404. */
  models?: string[];
  /** When set, every call must carry `Authorization: Bearer <apiKey>` (401 otherwise). */
  apiKey?: string;
  /** The reply text; default `fake reply from <model> to "<last user text>"`. */
  reply?: FakeReply;
  /** Delay before each streamed content chunk, in ms (default 0). */
  chunkDelayMs?: number;
}

export interface FakeOpenAI {
  /** `http://127.0.0.1:PORT/v1`. */
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  /** Replaces the list served by `GET /v1/models`. */
  setModels(models: string[]): void;
  setReply(reply: FakeReply): void;
  /** The next `count` calls (any path) answer `status` with an OpenAI-style error body. */
  failNext(count: number, status: number, message?: string): void;
  /** How streamed chat answers go wrong from now on, as a hostile or broken endpoint's do. */
  misbehave(how: Misbehaviour | undefined): void;
  /**
   * Streamed answers begun from now until `release` settles send their reply,
   * then ` more` every 100 ms until it settles, then finish as usual: a turn
   * that is still streaming for as long as a test needs, however slow the machine.
   */
  streamUntil(release: Promise<unknown>): void;
  close(): Promise<void>;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: any) => (part?.type === 'text' && typeof part.text === 'string' ? part.text : ''))
      .join('');
  }
  return '';
}

function words(text: string): number {
  return text.match(/\S+/g)?.length ?? 0;
}

/** Several chunks: one per word (spaces kept), so the client sees a real stream. */
function chunksOf(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? (text ? [text] : []);
}

function errorType(status: number): { type: string; code: string | null } {
  if (status === 401) return { type: 'invalid_request_error', code: 'invalid_api_key' };
  if (status === 404) return { type: 'invalid_request_error', code: 'model_not_found' };
  if (status === 429) return { type: 'rate_limit_exceeded', code: 'rate_limit_exceeded' };
  if (status >= 500) return { type: 'server_error', code: null };
  return { type: 'invalid_request_error', code: null };
}

function sendError(res: ServerResponse, status: number, message: string): void {
  const { type, code } = errorType(status);
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { message, type, param: null, code } }));
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  let models = [...(options.models ?? [])];
  let reply: FakeReply =
    options.reply ?? ((r) => `fake reply from ${r.model} to "${r.lastUserText}"`);
  const failures: Array<{ status: number; message: string }> = [];
  const requests: RecordedRequest[] = [];
  const chunkDelayMs = options.chunkDelayMs ?? 0;
  let sequence = 0;
  let misbehaviour: Misbehaviour | undefined;
  let holding: { released: boolean } | undefined;

  async function chat(req: IncomingMessage, res: ServerResponse, body: any): Promise<void> {
    if (typeof body !== 'object' || body === null || typeof body.model !== 'string') {
      sendError(res, 400, 'The request needs a JSON body with a "model".');
      return;
    }
    const model: string = body.model;
    if (models.length > 0 && !models.includes(model)) {
      sendError(res, 404, `The model \`${model}\` does not exist or you do not have access to it.`);
      return;
    }
    const messages: any[] = Array.isArray(body.messages) ? body.messages : [];
    const lastUser = [...messages].reverse().find((m) => m?.role === 'user');
    const info: ChatRequestInfo = {
      model,
      messages,
      lastUserText: textOf(lastUser?.content),
      body,
    };
    const text = typeof reply === 'function' ? reply(info) : reply;
    const hold = holding;
    const usage = {
      prompt_tokens: messages.reduce((n, m) => n + words(textOf(m?.content)), 0),
      completion_tokens: words(text),
      total_tokens: 0,
    };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    const id = `chatcmpl-fake-${++sequence}`;
    const created = Math.floor(Date.now() / 1000);

    if (body.stream !== true) {
      sendJson(res, 200, {
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [
          { index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' },
        ],
        usage,
      });
      return;
    }

    if (misbehaviour === 'silent') return;
    if (misbehaviour === 'html') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body><h1>Welcome to nginx!</h1></body></html>');
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    let closed = false;
    res.on('close', () => {
      closed = true;
    });
    const send = (chunk: unknown) => {
      if (!closed) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    };
    const base = { id, object: 'chat.completion.chunk', created, model };
    send({
      ...base,
      choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
    });
    const content = (piece: string) =>
      send({ ...base, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
    if (misbehaviour === 'stall-after-first') {
      content('The first words ');
      return;
    }
    if (misbehaviour === 'trickle') {
      while (!closed) {
        content('.');
        await sleep(100);
      }
      return;
    }
    if (misbehaviour === 'cut') {
      for (const piece of chunksOf(text)) content(piece);
      res.end();
      return;
    }
    for (const piece of chunksOf(text)) {
      if (chunkDelayMs > 0) await sleep(chunkDelayMs);
      if (closed) return;
      send({ ...base, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
    }
    if (hold) {
      while (!hold.released && !closed) {
        content(' more');
        await sleep(100);
      }
      if (closed) return;
    }
    send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
    if (body.stream_options?.include_usage === true) send({ ...base, choices: [], usage });
    if (!closed) res.end('data: [DONE]\n\n');
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    let body: any;
    if (raw !== '') {
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
    }
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const method = req.method ?? 'GET';
    requests.push({ method, path, headers: req.headers, body });

    const failure = failures.shift();
    if (failure) {
      sendError(res, failure.status, failure.message);
      return;
    }
    if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      sendError(
        res,
        401,
        'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.',
      );
      return;
    }
    if (method === 'GET' && path === '/v1/models') {
      sendJson(res, 200, {
        object: 'list',
        data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake' })),
      });
      return;
    }
    if (method === 'POST' && path === '/v1/chat/completions') {
      if (raw !== '' && body === undefined) {
        sendError(res, 400, 'The request body is not valid JSON.');
        return;
      }
      await chat(req, res, body);
      return;
    }
    sendError(res, 404, `Unknown request URL: ${method} ${path}.`);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, `fake server error: ${String(error)}`);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    setModels(next) {
      models = [...next];
    },
    setReply(next) {
      reply = next;
    },
    misbehave(how) {
      misbehaviour = how;
    },
    streamUntil(release) {
      const hold = { released: false };
      holding = hold;
      const done = () => {
        hold.released = true;
        if (holding === hold) holding = undefined;
      };
      release.then(done, done);
    },
    failNext(count, status, message) {
      for (let i = 0; i < count; i++) {
        failures.push({ status, message: message ?? `fake failure (${status})` });
      }
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
