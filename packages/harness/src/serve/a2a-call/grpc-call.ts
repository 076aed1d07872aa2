import { A2A_METHODS, type A2ACall } from './a2a-call.js';

/** The service A2A 1.0's gRPC binding defines (its `a2a.proto`). */
export const A2A_GRPC_SERVICE = 'lf.a2a.v1.A2AService';

/** Made once: a gRPC call carries its ids in its request message, so one object a method serves every call. */
const CALLS = new Map<string, A2ACall>(
  A2A_METHODS.map((method): [string, A2ACall] => [
    `/${A2A_GRPC_SERVICE}/${method}`,
    Object.freeze({ method, binding: 'grpc', legacy: false }),
  ]),
);

/**
 * The call a gRPC method path (`/lf.a2a.v1.A2AService/SendMessage`) asks for:
 * the proto's method names are the operations' own. Undefined for a path the
 * service does not define (grpc-js answers those itself, UNIMPLEMENTED).
 */
export function grpcCallOf(path: string): A2ACall | undefined {
  return CALLS.get(path);
}
