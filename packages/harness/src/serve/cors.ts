import cors from 'cors';
import type { RequestHandler } from 'express';
import { LEGACY_HTTP_EXTENSION_HEADER } from './legacy-v03/index.js';

/**
 * CORS for the A2A routes, so that pages on other origins (the web chat
 * pointed at this agent from elsewhere) can read the card and talk A2A. The
 * card stays public; `A2A-Extensions` is exposed so such pages can see the
 * echo (SEMANTICS §6).
 */
const corsHeaders = cors({
  // ETag: the web chat re-reads the card with If-None-Match to follow its commands.
  exposedHeaders: [
    'A2A-Extensions',
    'A2A-Version',
    LEGACY_HTTP_EXTENSION_HEADER,
    'Retry-After',
    'ETag',
  ],
  maxAge: 600,
});

/** Only a request with an `Origin` is a browser's cross-origin one: the rest skip CORS (profiled at ~5% of a command). */
export const a2aCors: RequestHandler = (req, res, next) => {
  if (req.headers.origin === undefined) next();
  else corsHeaders(req, res, next);
};
