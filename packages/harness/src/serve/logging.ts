import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino, type DestinationStream, type Logger } from 'pino';
import { enterRequestScope } from '../request-scope.js';

/** Log lines gather on stdout up to this many bytes before a write... */
const LOG_BATCH_BYTES = 4096;
/** ...or for this long at most. */
const LOG_FLUSH_MS = 100;

/**
 * JSON logs. A request's lines carry its `requestId`: code that logs for a
 * request is handed its child logger (`requestLog`), not async context.
 * Without a `destination`, lines go to stdout in batches (`batchedStdout`).
 */
export function createLogger(level = 'info', destination?: DestinationStream): Logger {
  const batched = destination ? undefined : batchedStdout();
  return pino(
    {
      level,
      base: { service: 'a2a-harness' },
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', '*.apiKey'],
        censor: '[redacted]',
      },
      ...(batched && { hooks: { streamWrite: batched.logged } }),
    },
    destination ?? batched!.stream,
  );
}

/**
 * Stdout written in batches of about 4 KB, and at least every 100 ms: a write
 * a line cost a command about 4% of its CPU at 32 in flight (profiled).
 * Pino writes what is left when the process exits.
 */
function batchedStdout() {
  const stream = pino.destination({ dest: 1, sync: false, minLength: LOG_BATCH_BYTES });
  // Two ticks: a flush while a write is under way writes nothing; the next one does.
  let ticksToFlush = 0;
  setInterval(() => {
    if (ticksToFlush === 0) return;
    ticksToFlush -= 1;
    stream.flush();
  }, LOG_FLUSH_MS).unref();
  return {
    stream,
    logged: (line: string) => {
      ticksToFlush = 2;
      return line;
    },
  };
}

/**
 * Express middleware: a request id (the client's `X-Request-Id`, or a new one),
 * echoed, and one `request completed` line a request (`request aborted` when the
 * client left first), at error level for a 5xx or an error left in `res.err`.
 * Written here rather than with pino-http: a command spent about 8% of its CPU
 * in pino-http's per-request child logger and serializers (profiled); the
 * request's child logger is now made only when something logs for the request.
 */
export function requestLogging(logger: Logger) {
  // The completed line's fields are the harness's own: nothing in it to redact (about 2 µs a line).
  const completed = logger.child({}, { redact: { paths: [] } });
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const started = performance.now();
    const given = req.headers['x-request-id'];
    const requestId =
      typeof given === 'string' && REQUEST_ID.test(given) ? given : crypto.randomUUID();
    res.setHeader('X-Request-Id', requestId);
    enterRequestScope(req, res, () => logger.child({ requestId }));
    res.once('close', () => {
      const err = (res as ServerResponse & { err?: unknown }).err;
      const line = {
        requestId,
        // Express rewrites `url` under a mounted path; `originalUrl` is what was asked for.
        req: { method: req.method, url: pathOf(originalUrl(req)) },
        res: { statusCode: res.statusCode },
        responseTime: Math.round(performance.now() - started),
        ...(err === undefined ? {} : { err }),
      };
      // The base logger: the request's child would name the request a second time.
      if (!res.writableFinished) logger.warn(line, 'request aborted');
      else if (err !== undefined || res.statusCode >= 500) logger.error(line, 'request errored');
      else completed.info(line, 'request completed');
    });
    next();
  };
}

const originalUrl = (req: IncomingMessage) =>
  (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '/';

const REQUEST_ID = /^[\w.:-]{1,100}$/;

/** `url` without its query string and fragment. */
export function pathOf(url: string): string {
  return url.replace(/[?#].*$/s, '');
}
