import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino, type DestinationStream, type Logger } from 'pino';
import { enterRequestScope } from '../request-scope.js';

/**
 * JSON logs. A request's lines carry its `requestId`: code that logs for a
 * request is handed its child logger (`requestLog`), not async context.
 */
export function createLogger(level = 'info', destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'a2a-harness' },
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', '*.apiKey'],
        censor: '[redacted]',
      },
    },
    // Asynchronous writes: lines logged while a write is pending go out together.
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
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
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const started = performance.now();
    const given = req.headers['x-request-id'];
    const requestId =
      typeof given === 'string' && REQUEST_ID.test(given) ? given : crypto.randomUUID();
    res.setHeader('X-Request-Id', requestId);
    const log = enterRequestScope(req, res, () => logger.child({ requestId }));
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
      if (!res.writableFinished) log().warn(line, 'request aborted');
      else if (err !== undefined || res.statusCode >= 500) logger.error(line, 'request errored');
      else logger.info(line, 'request completed');
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
