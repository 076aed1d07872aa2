import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino, type DestinationStream, type Logger } from 'pino';
import { pinoHttp } from 'pino-http';

const requestScope = new AsyncLocalStorage<string>();

/**
 * JSON logs. Every line written while a request is handled, including by the
 * turns it starts, carries that request's id, through async context.
 */
export function createLogger(level = 'info', destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'a2a-harness' },
      mixin: () => {
        const requestId = requestScope.getStore();
        return requestId ? { requestId } : {};
      },
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
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    // The mixin adds the id; pino-http's own `req` object would repeat it on every line.
    serializers: {
      // The path only: a query string may carry a key or other secret.
      req: (req: { method: string; url: string }) => ({ method: req.method, url: pathOf(req.url) }),
    },
  });
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    http(req, res);
    requestScope.run(String((req as IncomingMessage & { id: unknown }).id), next);
  };
}

/** `url` without its query string and fragment. */
export function pathOf(url: string): string {
  return url.replace(/[?#].*$/s, '');
}
