import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino, type DestinationStream, type Logger } from 'pino';
import { pinoHttp } from 'pino-http';
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

/** Express middleware: a request id (the client's `X-Request-Id`, or a new one), logged and echoed. */
export function requestLogging(logger: Logger) {
  const http = pinoHttp({
    logger,
    genReqId: (req: IncomingMessage, res: ServerResponse) => {
      const given = req.headers['x-request-id'];
      const id =
        typeof given === 'string' && /^[\w.:-]{1,100}$/.test(given) ? given : crypto.randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    // `req.log`, the logger `requestLog` finds, is bound to the request's id only;
    // the `request completed` line also has the method and URL.
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'requestId' },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    serializers: {
      // The path only: a query string may carry a key or other secret.
      req: (req: { method: string; url: string }) => ({ method: req.method, url: pathOf(req.url) }),
    },
  });
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    http(req, res);
    enterRequestScope(req, res, (req as IncomingMessage & { log: Logger }).log);
    next();
  };
}

/** `url` without its query string and fragment. */
export function pathOf(url: string): string {
  return url.replace(/[?#].*$/s, '');
}
