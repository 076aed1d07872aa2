/* eslint-disable @typescript-eslint/no-explicit-any -- the checker reads an unknown agent's raw wire JSON, which it checks field by field */
import { COMMANDS_EXTENSION_URI } from '../spec.js';
import { ANSWER_MAX_BYTES, BodyTooLarge, type CheckerHttp } from './http.js';

/** A wire-format message (A2A 1.0 JSON). */
export interface WireMessage {
  messageId: string;
  role: string;
  parts: Array<Record<string, unknown>>;
  taskId?: string;
  contextId?: string;
  metadata?: Record<string, unknown>;
}

/** The wire-format task, as far as the checks read it. */
export interface WireTask {
  id: string;
  contextId: string;
  status?: { state?: string; message?: WireMessage };
  history?: WireMessage[];
  metadata?: Record<string, unknown>;
}

/** One streamed event: `{task}`, `{statusUpdate}`, `{artifactUpdate}` or `{message}`. */
export type StreamEvent = Record<string, any>;

export interface SendOptions {
  /** Name the Commands extension in `A2A-Extensions`. */
  extensions?: boolean;
}

export interface SendResult {
  task?: WireTask;
  message?: WireMessage;
  headers: Headers;
}

export interface StreamResult {
  events: StreamEvent[];
  headers: Headers;
  /** False when the stream was still open after the time limit. */
  ended: boolean;
}

/** A protocol error the agent answered with. */
export class AgentError extends Error {
  override name = 'AgentError';
  constructor(
    readonly code: number | string,
    message: string,
  ) {
    super(message);
  }
}

/** The calls the checks make, over whichever binding the card offers. */
export interface AgentWire {
  readonly binding: 'JSONRPC' | 'HTTP+JSON' | 'GRPC';
  readonly url: string;
  send(message: WireMessage, options?: SendOptions): Promise<SendResult>;
  /** Reads every event until the stream ends, or `onEvent` returns true, or the time limit. */
  stream(
    message: WireMessage,
    options?: SendOptions & { onEvent?: (event: StreamEvent) => boolean | void },
  ): Promise<StreamResult>;
  getTask(id: string): Promise<WireTask>;
  cancel(id: string): Promise<WireTask>;
  /** GetExtendedAgentCard: the card as the checker's key sees it. */
  extendedCard(): Promise<any>;
}

abstract class BaseWire {
  abstract readonly binding: 'JSONRPC' | 'HTTP+JSON';
  constructor(
    readonly url: string,
    protected readonly http: CheckerHttp,
  ) {}

  protected headers(extensions = false): Record<string, string> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'A2A-Version': '1.0',
    };
    if (extensions) headers['A2A-Extensions'] = COMMANDS_EXTENSION_URI;
    return headers;
  }

  protected async call(
    url: string,
    init: { method: string; body?: unknown; extensions?: boolean },
  ): Promise<Response> {
    return this.http.request(url, {
      method: init.method,
      headers: this.headers(init.extensions),
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  }

  /** The answer's JSON (undefined for an empty body), read up to the answer bound. */
  protected async readJson(response: Response): Promise<any> {
    const text = await this.http.text(response, `the answer from ${this.url}`);
    if (!text) return undefined;
    try {
      return JSON.parse(text);
    } catch {
      throw new AgentError(response.status, `the answer is not JSON: ${text.slice(0, 200)}`);
    }
  }

  /** Reads SSE `data:` events; `unwrap` turns each into a stream event or throws. */
  protected async readStream(
    response: Response,
    unwrap: (data: any) => StreamEvent,
    onEvent?: (event: StreamEvent) => boolean | void,
  ): Promise<StreamResult> {
    const events: StreamEvent[] = [];
    if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
      const body = await this.readJson(response).catch((error: unknown) => {
        if (error instanceof BodyTooLarge) throw error;
        return undefined;
      });
      unwrap(body);
      throw new AgentError(response.status, 'the agent did not answer with an event stream');
    }
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let size = 0;
    const deadline = Date.now() + this.http.timeoutMs;
    for (;;) {
      const left = deadline - Date.now();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const chunk = await Promise.race([
        reader.read(),
        new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), Math.max(0, left));
        }),
      ]);
      // A pending timer would keep the CLI's process alive for the whole time limit.
      clearTimeout(timer);
      if (chunk === 'timeout') {
        await reader.cancel().catch(() => undefined);
        return { events, headers: response.headers, ended: false };
      }
      if (chunk.done) return { events, headers: response.headers, ended: true };
      size += chunk.value.length;
      if (size > ANSWER_MAX_BYTES) {
        await reader.cancel().catch(() => undefined);
        throw new BodyTooLarge(
          `the event stream from ${this.url} is larger than ${ANSWER_MAX_BYTES / (1024 * 1024)} MiB, the most the checker reads; it stopped reading there`,
        );
      }
      buffer += decoder.decode(chunk.value, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const raw = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = raw
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trimStart())
          .join('\n');
        if (!data) continue;
        const event = unwrap(JSON.parse(data));
        events.push(event);
        if (onEvent?.(event) === true) {
          await reader.cancel().catch(() => undefined);
          return { events, headers: response.headers, ended: true };
        }
      }
    }
  }
}

let nextId = 1;

export class JsonRpcWire extends BaseWire implements AgentWire {
  readonly binding = 'JSONRPC' as const;

  private async rpc(method: string, params: unknown, extensions?: boolean) {
    const response = await this.call(this.url, {
      method: 'POST',
      body: { jsonrpc: '2.0', id: nextId++, method, params },
      extensions,
    });
    return { response, body: await this.readJson(response) };
  }

  private static result(body: any): any {
    if (body?.error) throw new AgentError(body.error.code, body.error.message ?? 'error');
    if (body?.result === undefined) throw new AgentError('no-result', 'the answer has no result');
    return body.result;
  }

  async send(message: WireMessage, options: SendOptions = {}): Promise<SendResult> {
    const { response, body } = await this.rpc('SendMessage', { message }, options.extensions);
    const result = JsonRpcWire.result(body);
    return { task: result.task, message: result.message, headers: response.headers };
  }

  async stream(
    message: WireMessage,
    options: SendOptions & { onEvent?: (event: StreamEvent) => boolean | void } = {},
  ): Promise<StreamResult> {
    const response = await this.call(this.url, {
      method: 'POST',
      body: { jsonrpc: '2.0', id: nextId++, method: 'SendStreamingMessage', params: { message } },
      extensions: options.extensions,
    });
    return this.readStream(response, (data) => JsonRpcWire.result(data), options.onEvent);
  }

  async getTask(id: string): Promise<WireTask> {
    return JsonRpcWire.result((await this.rpc('GetTask', { id, historyLength: 1000 })).body);
  }

  async extendedCard(): Promise<any> {
    return JsonRpcWire.result((await this.rpc('GetExtendedAgentCard', {})).body);
  }

  async cancel(id: string): Promise<WireTask> {
    return JsonRpcWire.result((await this.rpc('CancelTask', { id })).body);
  }
}

export class RestWire extends BaseWire implements AgentWire {
  readonly binding = 'HTTP+JSON' as const;

  private static body(status: number, body: any): any {
    if (status >= 400 || body?.error) {
      const error = body?.error ?? {};
      throw new AgentError(error.code ?? status, error.message ?? `HTTP ${status}`);
    }
    return body;
  }

  private async json(path: string, method: string, body?: unknown, extensions?: boolean) {
    const response = await this.call(`${this.url}${path}`, { method, body, extensions });
    return { response, body: RestWire.body(response.status, await this.readJson(response)) };
  }

  async extendedCard(): Promise<any> {
    return (await this.json('/extendedAgentCard', 'GET')).body;
  }

  async send(message: WireMessage, options: SendOptions = {}): Promise<SendResult> {
    const { response, body } = await this.json(
      '/message:send',
      'POST',
      { message },
      options.extensions,
    );
    return { task: body.task, message: body.message, headers: response.headers };
  }

  async stream(
    message: WireMessage,
    options: SendOptions & { onEvent?: (event: StreamEvent) => boolean | void } = {},
  ): Promise<StreamResult> {
    const response = await this.call(`${this.url}/message:stream`, {
      method: 'POST',
      body: { message },
      extensions: options.extensions,
    });
    return this.readStream(
      response,
      (data) => RestWire.body(response.status, data),
      options.onEvent,
    );
  }

  async getTask(id: string): Promise<WireTask> {
    return (await this.json(`/tasks/${encodeURIComponent(id)}?historyLength=1000`, 'GET')).body;
  }

  async cancel(id: string): Promise<WireTask> {
    return (await this.json(`/tasks/${encodeURIComponent(id)}:cancel`, 'POST', {})).body;
  }
}

export function userMessage(
  text: string,
  ids: { taskId?: string; contextId?: string } = {},
  extraParts: Array<Record<string, unknown>> = [],
): WireMessage {
  return {
    messageId: crypto.randomUUID(),
    role: 'ROLE_USER',
    parts: [{ text }, ...extraParts],
    ...ids,
  };
}
