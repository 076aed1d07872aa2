import { A2A_VERSION_HEADER, Extensions, HTTP_EXTENSION_HEADER } from '@a2a-js/sdk';
import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import {
  defaultServerCallContextBuilder,
  JsonRpcTransportHandler,
  validateVersion,
  type A2ARequestHandler,
  type ServerCallContextBuilder,
} from '@a2a-js/sdk/server';
import type { UserBuilder } from '@a2a-js/sdk/server/express';
import type { Request, Response } from 'express';
import { answerJson } from './json-answer.js';

export interface TransportParts {
  requestHandler: A2ARequestHandler;
  contextBuilder?: ServerCallContextBuilder;
  userBuilder: UserBuilder;
}

/** The methods whose answer is an SSE stream: the SDK's own Express route serves them. */
export const STREAMING_METHODS = new Set(['SendStreamingMessage', 'SubscribeToTask']);

/**
 * An A2A 1.0 JSON-RPC call with a single answer, through the SDK's JSON-RPC
 * transport, answered as the SDK's Express route answers it (same context,
 * version check, `A2A-Extensions` echo, error bodies and statuses), without
 * its router and body parser: the lane has read and checked the body.
 */
export function transportCall(
  parts: TransportParts,
): (req: Request, res: Response) => Promise<void> {
  const transport = new JsonRpcTransportHandler(parts.requestHandler);
  const buildContext = parts.contextBuilder ?? defaultServerCallContextBuilder;
  return async (req, res) => {
    const body = req.body as Record<string, unknown>;
    try {
      const user = await parts.userBuilder(req);
      const context = buildContext({
        extensions: Extensions.parseServiceParameter(req.header(HTTP_EXTENSION_HEADER)),
        user,
        headers: req.headers,
        requestedVersion: req.header(A2A_VERSION_HEADER) || undefined,
      });
      validateVersion(
        context.requestedVersion,
        await parts.requestHandler.getAgentCard(),
        'JSONRPC',
      );
      const answer = await transport.handle(body, context);
      if (context.activatedExtensions) {
        res.setHeader(HTTP_EXTENSION_HEADER, Array.from(context.activatedExtensions));
      }
      answerJson(res, 200, answer);
    } catch (error) {
      // As the SDK's route reports and answers an error outside its transport.
      console.error('Unhandled error in JSON-RPC POST handler:', error);
      const mapped = JsonRpcTransportHandler.mapToJSONRPCError(error);
      const answer = { jsonrpc: '2.0', id: body.id || null, error: mapped };
      if (!res.headersSent) {
        res.status(mapped.code === A2A_ERROR_CODE.INTERNAL_ERROR ? 500 : 200).json(answer);
      } else if (!res.writableEnded) {
        res.end();
      }
    }
  };
}
