/**
 * Every HTTP call the checker makes: the agent it audits may be hostile, so
 * each body is read up to a bound, the API key goes only where the user sent
 * it, and a failed connection names its URL and cause.
 */

const MiB = 1024 * 1024;

/** The most the checker reads of a card. */
export const CARD_MAX_BYTES = MiB;
/** The most it reads of one answer, or of one whole event stream. */
export const ANSWER_MAX_BYTES = 8 * MiB;

/** A body over its bound: the checker stopped reading it. */
export class BodyTooLarge extends Error {
  override name = 'BodyTooLarge';
}

export interface HttpOptions {
  apiKey?: string;
  /** The origin the user named: the key is sent there only, unless `apiKeyAnyOrigin`. */
  keyOrigin: string;
  apiKeyAnyOrigin?: boolean;
  /** How long one call may take, in ms. */
  timeoutMs: number;
  fetch?: typeof fetch;
}

export interface RequestInit {
  method: string;
  headers?: Record<string, string>;
  body?: string;
}

function bytes(count: number): string {
  return count % MiB === 0 ? `${count / MiB} MiB` : `${count} bytes`;
}

/** "connect ECONNREFUSED 127.0.0.1:1" from undici's `fetch failed` and its cause. */
function causeOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return 'no answer within the time limit (--timeout)';
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error) {
    const code = (cause as { code?: string }).code;
    return code && !cause.message.includes(code) ? `${code}: ${cause.message}` : cause.message;
  }
  return error.message;
}

export class CheckerHttp {
  /** Origins that were not sent the key, for the report to say so. */
  readonly withheldFrom = new Set<string>();

  constructor(private readonly options: HttpOptions) {}

  get timeoutMs(): number {
    return this.options.timeoutMs;
  }

  private authorization(url: string): Record<string, string> {
    return this.authorizationFor(new URL(url).origin);
  }

  /** The `authorization` to send to `origin`: the key only where the user sent it, unless any origin may have it. */
  authorizationFor(origin: string): Record<string, string> {
    if (!this.options.apiKey) return {};
    if (origin !== this.options.keyOrigin && !this.options.apiKeyAnyOrigin) {
      this.withheldFrom.add(origin);
      return {};
    }
    return { authorization: `Bearer ${this.options.apiKey}` };
  }

  /** Sends one request; a connection that fails throws with the method, URL and cause. */
  async request(url: string, init: RequestInit): Promise<Response> {
    try {
      return await (this.options.fetch ?? fetch)(url, {
        method: init.method,
        headers: { ...init.headers, ...this.authorization(url) },
        body: init.body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      throw new Error(`${init.method} ${url} failed: ${causeOf(error)}`, { cause: error });
    }
  }

  /** The body as text, read up to `maxBytes`; past that it stops and throws {@link BodyTooLarge}. */
  async text(response: Response, what: string, maxBytes = ANSWER_MAX_BYTES): Promise<string> {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of readChunks(response, what, maxBytes)) {
      chunks.push(chunk);
      size += chunk.length;
    }
    const joined = new Uint8Array(size);
    let at = 0;
    for (const chunk of chunks) {
      joined.set(chunk, at);
      at += chunk.length;
    }
    return new TextDecoder().decode(joined);
  }
}

/**
 * The body's chunks until it ends; throws {@link BodyTooLarge}, after cancelling
 * the body, once more than `maxBytes` have come.
 */
export async function* readChunks(
  response: Response,
  what: string,
  maxBytes: number,
): AsyncGenerator<Uint8Array> {
  if (!response.body) return;
  const reader = response.body.getReader();
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      size += value.length;
      if (size > maxBytes) {
        throw new BodyTooLarge(
          `${what} is larger than ${bytes(maxBytes)}, the most the checker reads; it stopped reading there`,
        );
      }
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
