import { IncomingMessage, ServerResponse, type ServerOptions } from 'node:http';
import type { Express } from 'express';

/**
 * Node's request and response objects made with the app's Express prototypes
 * from the start. Express (and the JSON-RPC lane, which runs the same chain)
 * gives each request and response the app's prototypes with
 * `Object.setPrototypeOf`; on objects Node made as plain ones, that change
 * made V8 handle every later property access on them slowly. A small server
 * spent about 150 µs of CPU a request that way against about 80 µs with the
 * prototypes set at construction, where Express's own call then changes
 * nothing.
 *
 * The server is made before the app (it listens first, to learn its port), so
 * the objects start as Node's own and take the app's prototypes once `adopt`
 * is called: requests answered while the harness starts need none.
 */
export function expressShapedObjects(): {
  serverOptions: Pick<ServerOptions, 'IncomingMessage' | 'ServerResponse'>;
  adopt(app: Express): void;
} {
  function Request(this: IncomingMessage, ...args: ConstructorParameters<typeof IncomingMessage>) {
    IncomingMessage.apply(this, args);
  }
  Request.prototype = IncomingMessage.prototype;
  function Response(this: ServerResponse, ...args: ConstructorParameters<typeof ServerResponse>) {
    ServerResponse.apply(this, args);
  }
  Response.prototype = ServerResponse.prototype;
  return {
    serverOptions: {
      IncomingMessage: Request as unknown as typeof IncomingMessage,
      ServerResponse: Response as unknown as typeof ServerResponse,
    },
    adopt(app) {
      Request.prototype = app.request;
      Response.prototype = app.response;
    },
  };
}
