import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import compression from 'compression';
import express, { Router } from 'express';

/** Where the web chat is served. */
export const WEB_UI_PATH = '/ui';

/**
 * The web chat's build: the `dist` folder of `a2a-web-chat`, a dependency of
 * the harness, found the way Node finds any package. An installed harness
 * finds the installed web chat; in this repository npm links the workspace,
 * so it is packages/web/dist.
 */
export const WEB_UI_DIST = path.join(
  path.dirname(createRequire(import.meta.url).resolve('a2a-web-chat/package.json')),
  'dist',
);

const NOT_BUILT =
  'The web chat is not built yet. Run `npm run build` at the repository root ' +
  '(`npm start` does it for you), then reload this page.';

export interface WebUiOptions {
  /** The built assets; {@link WEB_UI_DIST} by default. */
  dir?: string;
}

/**
 * Serves the web chat's built assets at `/ui`. Hashed files under `assets/`
 * are cached for good; `index.html` is revalidated, so a rebuild shows on the
 * next load. While the build is missing, `/ui` answers 503 saying how to
 * build it; the check runs per request, so building later needs no restart.
 * Files go brotli or gzip compressed, as the browser accepts: the script is
 * about a quarter of its size that way.
 */
export function webUiRoutes(options: WebUiOptions = {}): Router {
  const dir = options.dir ?? WEB_UI_DIST;
  const index = path.join(dir, 'index.html');
  const router = Router();
  router.use(WEB_UI_PATH, (req, res, next) => {
    if (existsSync(index)) {
      next();
      return;
    }
    res.status(503).set('Cache-Control', 'no-store').type('text/plain').send(NOT_BUILT);
  });
  router.use(WEB_UI_PATH, compression());
  router.use(
    WEB_UI_PATH,
    express.static(dir, {
      index: 'index.html',
      fallthrough: true,
      setHeaders(res, file) {
        const hashed = file.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    }),
  );
  return router;
}
