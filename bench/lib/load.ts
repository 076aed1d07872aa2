import http from 'node:http';

/** One JSON-RPC endpoint, called over keep-alive connections. */
export class Endpoint {
  private readonly agent: http.Agent;
  private readonly url: URL;

  constructor(
    endpointUrl: string,
    maxSockets = 256,
    private readonly headers: Record<string, string> = {},
  ) {
    this.url = new URL(endpointUrl);
    this.agent = new http.Agent({ keepAlive: true, maxSockets });
  }

  /** POSTs `body` (or GETs when undefined); resolves with the status and the response text. */
  request(body?: string): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const request = http.request(
        this.url,
        {
          method: body === undefined ? 'GET' : 'POST',
          agent: this.agent,
          headers:
            body === undefined
              ? this.headers
              : {
                  'content-type': 'application/json',
                  'A2A-Version': '1.0',
                  'content-length': Buffer.byteLength(body),
                  ...this.headers,
                },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
          );
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

export type Call = () => Promise<boolean>;

/** Round-trip times in milliseconds of `count` calls made one after another; fails on any error. */
export async function sequential(call: Call, count: number): Promise<number[]> {
  return (await sequentialInTurn([call], count))[0]!;
}

/**
 * Round-trip times in milliseconds of `count` calls to each of `calls`, one call at a
 * time and each in turn, call by call: a change in the machine's speed then falls on
 * all of them alike, where runs of hundreds of calls each can catch it on one alone.
 */
export async function sequentialInTurn(calls: Call[], count: number): Promise<number[][]> {
  const times: number[][] = calls.map(() => []);
  for (let i = 0; i < count; i++) {
    for (const [index, call] of calls.entries()) {
      const start = process.hrtime.bigint();
      if (!(await call())) throw new Error('a call failed during a sequential run');
      times[index]!.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  return times;
}

/**
 * Calls per second of each of `calls` with one call in flight, taking turns call by
 * call for `durationMs` each: each one's calls over the time it was the one called.
 */
export async function loneThroughputInTurn(
  calls: Call[],
  durationMs: number,
): Promise<Array<{ perSecond: number; errors: number }>> {
  const busyMs = calls.map(() => 0);
  const done = calls.map(() => 0);
  const errors = calls.map(() => 0);
  const deadline = performance.now() + durationMs * calls.length;
  while (performance.now() < deadline) {
    for (const [index, call] of calls.entries()) {
      const start = performance.now();
      const ok = await call().catch(() => false);
      busyMs[index]! += performance.now() - start;
      if (ok) done[index]!++;
      else errors[index]!++;
    }
  }
  return calls.map((_, index) => ({
    perSecond: (done[index]! * 1000) / busyMs[index]!,
    errors: errors[index]!,
  }));
}

/** Calls per second with `inFlight` calls always outstanding for `durationMs`. */
export async function throughput(
  call: Call,
  inFlight: number,
  durationMs: number,
): Promise<{ perSecond: number; errors: number }> {
  const deadline = performance.now() + durationMs;
  let done = 0;
  let errors = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      const ok = await call().catch(() => false);
      if (ok) done++;
      else errors++;
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: inFlight }, worker));
  return { perSecond: (done * 1000) / (performance.now() - start), errors };
}

let counter = 0;

/** A JSON-RPC SendMessage body with a fresh message id. */
export function sendMessageBody(text: string, taskId?: string): string {
  counter++;
  return JSON.stringify({
    jsonrpc: '2.0',
    id: counter,
    method: 'SendMessage',
    params: {
      message: {
        messageId: `bench-${process.pid}-${counter}`,
        role: 'ROLE_USER',
        parts: [{ text }],
        ...(taskId ? { taskId } : {}),
      },
    },
  });
}

/** A call that sends `text` and checks that a result, not an error, came back. */
export function sendCall(endpoint: Endpoint, text: string, taskId?: string): Call {
  return async () => {
    const { status, text: body } = await endpoint.request(sendMessageBody(text, taskId));
    return status === 200 && body.includes('"result"') && !body.includes('"error":{');
  };
}
