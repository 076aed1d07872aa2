import http from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { COMMANDS_EXTENSION_URI } from 'a2a-commands';

export const EXT = COMMANDS_EXTENSION_URI;

export interface Listening {
  baseUrl: string;
  close(): Promise<void>;
}

/** Listens on a free loopback port. */
export async function listen(app: Express): Promise<Listening> {
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function headers(extensions?: boolean): Record<string, string> {
  const h: Record<string, string> = { 'content-type': 'application/json', 'A2A-Version': '1.0' };
  if (extensions) h['A2A-Extensions'] = EXT;
  return h;
}

let nextId = 1;

export interface RpcResponse {
  status: number;
  headers: Headers;
  body: { result?: any; error?: { code: number; message: string } };
}

/** One JSON-RPC call over real HTTP. */
export async function rpc(
  baseUrl: string,
  method: string,
  params: unknown,
  options: { extensions?: boolean; headers?: Record<string, string> } = {},
): Promise<RpcResponse> {
  const response = await fetch(`${baseUrl}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { ...headers(options.extensions), ...options.headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** A JSON-RPC streaming call: the response, and its events as they arrive. */
export async function rpcStream(
  baseUrl: string,
  method: string,
  params: unknown,
  options: { extensions?: boolean; headers?: Record<string, string> } = {},
): Promise<{ response: Response; events: SseReader }> {
  const response = await fetch(`${baseUrl}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { ...headers(options.extensions), ...options.headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
  });
  return { response, events: new SseReader(response) };
}

/** An HTTP+JSON call. */
export async function rest(
  baseUrl: string,
  path: string,
  body?: unknown,
  options: { extensions?: boolean; method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: any; events?: SseReader }> {
  const response = await fetch(`${baseUrl}/a2a/rest${path}`, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers: { ...headers(options.extensions), ...options.headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
    return {
      status: response.status,
      headers: response.headers,
      body: undefined,
      events: new SseReader(response),
    };
  }
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? JSON.parse(text) : undefined,
  };
}

/** Reads `data:` events from an SSE response, one at a time. */
export class SseReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private buffer = '';
  private done = false;

  constructor(response: Response) {
    this.reader = response.body!.getReader();
  }

  /** The next event's parsed data, or undefined when the stream has ended. */
  async next(): Promise<any> {
    for (;;) {
      const boundary = this.buffer.indexOf('\n\n');
      if (boundary >= 0) {
        const raw = this.buffer.slice(0, boundary);
        this.buffer = this.buffer.slice(boundary + 2);
        const data = raw
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trimStart())
          .join('\n');
        if (data) return JSON.parse(data);
        continue;
      }
      if (this.done) return undefined;
      const { value, done } = await this.reader.read();
      if (done) this.done = true;
      else this.buffer += this.decoder.decode(value, { stream: true });
    }
  }

  /** Every remaining event, until the server ends the stream. */
  async rest(): Promise<any[]> {
    const events = [];
    for (let event = await this.next(); event !== undefined; event = await this.next())
      events.push(event);
    return events;
  }

  async cancel(): Promise<void> {
    await this.reader.cancel().catch(() => undefined);
  }
}

/** A wire-format user message. */
export function userText(text: string, ids: { taskId?: string; contextId?: string } = {}) {
  return { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...ids };
}

/** The JSON-RPC result of a stream event, unwrapped. */
export function resultOf(event: any): any {
  if (event?.error) throw new Error(`stream error ${event.error.code}: ${event.error.message}`);
  return event?.result;
}

export async function waitFor<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  tries = 200,
): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A GET through node:http: fetch adds `Cache-Control: no-cache` to conditional requests. */
export function rawGet(
  url: string,
  requestHeaders: Record<string, string> = {},
): Promise<{ status: number; etag: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: requestHeaders }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, etag: response.headers.etag, body }),
        );
      })
      .on('error', reject);
  });
}
