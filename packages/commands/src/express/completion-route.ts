import { ServerCallContext } from '@a2a-js/sdk/server';
import { UserBuilder } from '@a2a-js/sdk/server/express';
import express, { Router, type ErrorRequestHandler } from 'express';
import { CompletionRefusal, type ArgumentCompletions } from '../completion/server.js';
import type { CompletionErrorBody } from '../completion/spec.js';

export interface CompletionRouteOptions {
  /** Who is asking: the same builder the A2A routes use (rule 2). */
  userBuilder?: UserBuilder;
  /** Larger bodies are refused; 16 kB by default, far above what the request schema allows. */
  bodyLimit?: string | number;
  onError?: (error: unknown, where: string) => void;
}

function refusal(code: string, message: string): CompletionErrorBody {
  return { error: { code, message } };
}

/**
 * `POST <endpoint>`: the completion extension's route. Mount it behind the
 * agent's authentication, like the A2A bindings.
 */
export function completionRoute(
  completions: ArgumentCompletions,
  options: CompletionRouteOptions = {},
): Router {
  const userBuilder = options.userBuilder ?? UserBuilder.noAuthentication;
  const router = Router();
  router.post('/', express.json({ limit: options.bodyLimit ?? '16kb' }), async (req, res) => {
    const abandoned = new AbortController();
    res.on('close', () => abandoned.abort());
    try {
      const user = await userBuilder(req);
      const callContext = new ServerCallContext({ user, requestedVersion: '1.0' });
      const answer = await completions.answer(req.body, callContext, abandoned.signal);
      res.json(answer);
    } catch (error) {
      if (error instanceof CompletionRefusal) {
        res.status(error.status).json(refusal(error.code, error.message));
        return;
      }
      options.onError?.(error, 'completion');
      res.status(500).json(refusal('internal-error', 'The values could not be computed.'));
    }
  });
  router.all('/', (_req, res) => {
    res
      .status(405)
      .setHeader('Allow', 'POST')
      .json(refusal('invalid-request', 'Send the completion request with POST.'));
  });
  const badBody: ErrorRequestHandler = (
    error: { status?: number; type?: string },
    _req,
    res,
    next,
  ) => {
    if (res.headersSent) return next(error);
    const tooLarge = error.type === 'entity.too.large';
    res
      .status(tooLarge ? 413 : 400)
      .json(
        refusal(
          'invalid-request',
          tooLarge ? 'The completion request is too large.' : 'The body is not valid JSON.',
        ),
      );
  };
  router.use(badBody);
  return router;
}
