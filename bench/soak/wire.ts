/**
 * The soak's client side of the wire: JSON-RPC and HTTP+JSON calls over real
 * HTTP, each answering with a result or the error the server gave.
 */
import type { WireMessage } from 'a2a-testing/history-audit';
import { headers, SseReader } from 'a2a-testing/http';

export type { WireMessage };

export interface WireTask {
  id: string;
  contextId: string;
  status: { state: string; message?: WireMessage };
  history?: WireMessage[];
  metadata?: Record<string, unknown>;
}

/** One event of a stream, as JSON-RPC's `result` or HTTP+JSON's event. */
export interface StreamEvent {
  task?: WireTask;
  statusUpdate?: {
    taskId: string;
    status: { state: string; message?: WireMessage };
    metadata?: { command?: string };
  };
  artifactUpdate?: unknown;
}

export interface WireError {
  code: number;
  message: string;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: WireError };

export type Binding = 'JSON-RPC' | 'HTTP+JSON';

/** A stream's events, unwrapped; a JSON-RPC error in the middle of one is thrown. */
export class EventStream {
  constructor(
    private readonly reader: SseReader,
    private readonly binding: Binding,
  ) {}

  async next(): Promise<StreamEvent | undefined> {
    const data = (await this.reader.next()) as
      { result?: StreamEvent; error?: WireError } | StreamEvent | undefined;
    if (data === undefined || this.binding === 'HTTP+JSON') return data as StreamEvent | undefined;
    const wrapped = data as { result?: StreamEvent; error?: WireError };
    if (wrapped.error)
      throw new Error(`stream error ${wrapped.error.code}: ${wrapped.error.message}`);
    return wrapped.result;
  }

  close(): Promise<void> {
    return this.reader.cancel();
  }
}

let nextId = 1;

export class Wire {
  constructor(private readonly baseUrl: string) {}

  async rpc<T>(method: string, params: unknown): Promise<Outcome<T>> {
    const response = await this.post(method, params);
    const body = (await response.json()) as { result?: T; error?: WireError };
    return body.error ? { ok: false, error: body.error } : { ok: true, value: body.result as T };
  }

  async rest<T>(path: string, body?: unknown): Promise<Outcome<T>> {
    const response = await fetch(`${this.baseUrl}/a2a/rest${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: headers(),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const parsed = text ? (JSON.parse(text) as { error?: WireError }) : {};
    if (response.ok) return { ok: true, value: parsed as T };
    return { ok: false, error: restError(response.status, parsed) };
  }

  async rpcStream(method: string, params: unknown): Promise<Outcome<EventStream>> {
    return this.stream(await this.post(method, params), 'JSON-RPC');
  }

  async restStream(path: string, body?: unknown): Promise<Outcome<EventStream>> {
    const response = await fetch(`${this.baseUrl}/a2a/rest${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: headers(),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return this.stream(response, 'HTTP+JSON');
  }

  private post(method: string, params: unknown): Promise<Response> {
    return fetch(`${this.baseUrl}/a2a/jsonrpc`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
    });
  }

  /** A refusal comes back as plain JSON, not as an event stream. */
  private async stream(response: Response, binding: Binding): Promise<Outcome<EventStream>> {
    if (response.headers.get('content-type')?.startsWith('text/event-stream'))
      return { ok: true, value: new EventStream(new SseReader(response), binding) };
    const text = await response.text();
    const parsed = (text ? JSON.parse(text) : {}) as { error?: WireError };
    return {
      ok: false,
      error:
        binding === 'JSON-RPC' && parsed.error ? parsed.error : restError(response.status, parsed),
    };
  }
}

function restError(status: number, body: { error?: WireError }): WireError {
  return { code: status, message: body.error?.message ?? `HTTP ${status}` };
}

/** A wire-format user message with a fresh id. */
export function userMessage(text: string, ids: { taskId?: string; contextId?: string }) {
  return { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...ids };
}
