import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';

/**
 * The one error body of the harness's own HTTP paths (`/healthz`, `/readyz`,
 * `/metrics`, the completion route, anything unknown): a kebab-case `code` for
 * programs and a `message` for people. The A2A bindings answer in their own
 * shapes; the completion spec and the command refusal use this one too.
 */
export interface OwnRefusal {
  error: { code: string; message: string };
}

export function ownRefusal(code: string, message: string): OwnRefusal {
  return { error: { code, message } };
}

/** The last handler: a path and method nothing here answers. */
export const ownNotFound: RequestHandler = (req, res) => {
  res.status(404).json(ownRefusal('not-found', `There is nothing at ${req.method} ${req.path}.`));
};

/** Errors that reach the app's end: a client's fault keeps its 4xx, anything else is 500. */
export function ownErrors(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const status = clientStatusOf(error);
    if (status === undefined) {
      logger.error({ err: error, path: req.path }, 'request failed');
      res
        .status(500)
        .json(
          ownRefusal('internal-error', 'The server failed to answer; its log has the details.'),
        );
      return;
    }
    res
      .status(status)
      .json(ownRefusal('bad-request', `The request cannot be answered: ${messageOf(error)}`));
  };
}

function clientStatusOf(error: unknown): number | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const status =
    'status' in error ? error.status : 'statusCode' in error ? error.statusCode : undefined;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
