import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { matchesAsExpress } from './a2a-call/index.js';
import { JSONRPC_PATH } from './agent-card.js';
import { ownRefusal } from './own-refusals.js';

/** Seconds a client is told to wait before it asks again while the harness starts. */
export const RETRY_AFTER_SECONDS = 1;

/**
 * The JSON-RPC error code of the start-up answer. JSON-RPC leaves -32000 to
 * -32099 to servers; the harness's codes there echo HTTP (-32029 for 429), so 503 is -32053.
 */
export const STARTING_CODE = -32053;

const STARTING_MESSAGE = 'The agent is starting; retry in a moment.';

const atJsonRpc = matchesAsExpress(JSONRPC_PATH);

/**
 * What answers while the harness starts (it listens first, so that the card
 * can name the real port of `--port 0`): `/healthz` says the process is
 * alive, everything else is 503 with `Retry-After`, so that no request waits
 * on a server that cannot answer it yet.
 */
export const answerWhileStarting: RequestListener = (req, res) => {
  const path = pathOf(req);
  if (path === '/healthz') {
    sendJson(res, 200, { ok: true });
    return;
  }
  res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
  sendJson(res, 503, startingBody(path));
};

/** What a client of this path reads: a JSON-RPC error on the JSON-RPC endpoint. */
function startingBody(path: string): unknown {
  if (path === '/readyz') return { ready: false, starting: true };
  if (atJsonRpc(path)) {
    return {
      jsonrpc: '2.0',
      // The body is not read while starting: the id is not known.
      id: null,
      error: {
        code: STARTING_CODE,
        message: STARTING_MESSAGE,
        data: { retryAfterSeconds: RETRY_AFTER_SECONDS },
      },
    };
  }
  return ownRefusal('starting', STARTING_MESSAGE);
}

/** One listener for the server's life: `answerWhileStarting` until `ready` gives the app. */
export function startUpSwitch(): {
  listener: RequestListener;
  ready(app: RequestListener): void;
} {
  let current: RequestListener = answerWhileStarting;
  return {
    listener: (req, res) => current(req, res),
    ready: (app) => {
      current = app;
    },
  };
}

function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
