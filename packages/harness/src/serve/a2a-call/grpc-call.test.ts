import { A2AService } from '@a2a-js/sdk/server/grpc';
import { describe, expect, it } from 'vitest';
import { A2A_METHODS } from './a2a-call.js';
import { grpcCallOf } from './grpc-call.js';

describe('grpcCallOf', () => {
  it("decides every method of the SDK's gRPC service, as the operation it names", () => {
    const paths = Object.values(A2AService).map((method) => method.path);
    expect(paths).toHaveLength(A2A_METHODS.length);
    for (const path of paths) {
      const call = grpcCallOf(path);
      expect(call).toEqual({ method: path.split('/').at(-1), binding: 'grpc', legacy: false });
    }
  });

  it('decides nothing for a path the service does not define', () => {
    expect(grpcCallOf('/lf.a2a.v1.A2AService/sendMessage')).toBeUndefined();
    expect(grpcCallOf('/other.Service/SendMessage')).toBeUndefined();
    expect(grpcCallOf('SendMessage')).toBeUndefined();
  });
});
