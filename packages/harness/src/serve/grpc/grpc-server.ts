import * as grpc from '@grpc/grpc-js';
import { A2AService, grpcService } from '@a2a-js/sdk/server/grpc';
import type { Logger } from 'pino';
import type { Harness } from '../harness.js';
import { GrpcFront } from './grpc-front.js';

export interface GrpcListening {
  /** The port bound: the one asked for, or the one picked for 0. */
  port: number;
  /** Serves A2A's gRPC service with the harness; until then, calls are answered UNIMPLEMENTED. */
  serve(harness: Harness, logger: Logger): void;
  /** Stops taking calls; resolves once the open ones have ended (or been cut). */
  stopTaking(): Promise<void>;
  /** Cuts the calls still open. */
  cut(): void;
}

/**
 * Binds the gRPC port before the harness exists, so that the card can name
 * the real port when 0 picked one. Messages larger than `maxMessageBytes`
 * (limits.bodyBytes, as on HTTP) are refused by grpc-js, RESOURCE_EXHAUSTED.
 */
export async function listenGrpc(
  host: string,
  port: number,
  maxMessageBytes: number,
): Promise<GrpcListening> {
  const server = new grpc.Server({ 'grpc.max_receive_message_length': maxMessageBytes });
  const address = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  const bound = await new Promise<number>((resolve, reject) => {
    server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (error, picked) =>
      error ? reject(error) : resolve(picked),
    );
  });
  return {
    port: bound,
    serve(harness, logger) {
      const front = new GrpcFront({
        apiKeys: harness.apiKeys,
        logger,
        contextBuilder: harness.contextBuilder,
      });
      // The same request handler as JSON-RPC and HTTP+JSON: one set of tasks, turns and guards.
      const service = grpcService({
        requestHandler: harness.requestHandler,
        userBuilder: front.userBuilder,
        contextBuilder: front.contextBuilder,
      });
      server.addService(A2AService, front.guard(service));
    },
    stopTaking() {
      return new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
    },
    cut() {
      server.forceShutdown();
    },
  };
}
