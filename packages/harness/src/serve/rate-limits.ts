import type { CommandRegistry, MessageLike } from 'a2a-commands';
import { parseCommand } from 'a2a-commands';
import type { Request, RequestHandler, Response } from 'express';
import type { Limits } from '../config/limits.js';
import { principalOf } from './auth.js';
import { TokenBuckets, type Refusal } from './token-buckets.js';

/**
 * JSON-RPC has no standard code for this. -32029 is in JSON-RPC's
 * implementation-defined server range (-32000 to -32099), clear of the codes
 * A2A assigns (-32001 to -32009) and of the harness's -32000 (unauthenticated).
 */
export const RATE_LIMITED_CODE = -32029;

type RateLimits = Pick<
  Limits,
  'commandsPerMinute' | 'commandBurst' | 'turnsPerMinute' | 'turnBurst'
>;

/** A2A 1.0's names, and 0.3's for the callers the SDK's compat layer serves on the same path. */
const SEND_METHODS = new Set([
  'SendMessage',
  'SendStreamingMessage',
  'message/send',
  'message/stream',
]);
/** `/message:send`, behind a tenant or 0.3's `/v1` as well. */
const SEND_PATH = /^(?:\/[^/]+)?\/message:(?:send|stream)$/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isMessageLike(value: unknown): value is MessageLike {
  return isPlainObject(value) && Array.isArray(value.parts);
}

/**
 * Token buckets per principal, one set for commands and one for ordinary
 * messages (turns), so that a caller who spends its turns can still run
 * `/help`, and the other way round. Other calls are not limited. The caller is
 * its principal with API keys, its address without.
 */
export class RateLimiter {
  private readonly commands?: TokenBuckets;
  private readonly turns?: TokenBuckets;

  constructor(
    limits: RateLimits,
    private readonly registry: Pick<CommandRegistry, 'get'>,
  ) {
    if (limits.commandsPerMinute > 0) {
      this.commands = new TokenBuckets({
        perMinute: limits.commandsPerMinute,
        burst: limits.commandBurst,
      });
    }
    if (limits.turnsPerMinute > 0) {
      this.turns = new TokenBuckets({ perMinute: limits.turnsPerMinute, burst: limits.turnBurst });
    }
  }

  /** Whether any limit is on: without one the middleware is not needed. */
  get active(): boolean {
    return this.commands !== undefined || this.turns !== undefined;
  }

  /** Before the SDK's JSON-RPC handler, after the body is parsed and checked. */
  readonly jsonRpc: RequestHandler = (req, res, next) => {
    const body: unknown = req.body;
    if (isPlainObject(body) && typeof body.method === 'string' && SEND_METHODS.has(body.method)) {
      const message = isPlainObject(body.params) ? body.params.message : undefined;
      const refusal = this.check(req, message);
      if (refusal) {
        tooManyJsonRpc(res, refusal, (body.id as string | number | null | undefined) ?? null);
        return;
      }
    }
    next();
  };

  /** Before the SDK's HTTP+JSON handler, after the body is parsed and checked. */
  readonly rest: RequestHandler = (req, res, next) => {
    const body: unknown = req.body;
    if (req.method === 'POST' && SEND_PATH.test(req.path) && isPlainObject(body)) {
      const refusal = this.check(req, body.message);
      if (refusal) {
        tooManyRest(res, refusal);
        return;
      }
    }
    next();
  };

  /** SEMANTICS §2: a command is what the library's parser finds registered; all else is a turn. */
  private check(req: Request, message: unknown): Refusal | undefined {
    const isCommand = isMessageLike(message) && parseCommand(message, this.registry) !== undefined;
    const buckets = isCommand ? this.commands : this.turns;
    return buckets?.take(callerOf(req));
  }
}

function callerOf(req: Request): string {
  const principal = principalOf(req);
  return principal !== undefined
    ? `principal:${principal}`
    : `address:${req.socket.remoteAddress ?? ''}`;
}

function message(refusal: Refusal): string {
  return `Too many requests: this caller is over its rate limit; retry after ${refusal.retryAfterSeconds} s.`;
}

function tooManyJsonRpc(res: Response, refusal: Refusal, id: string | number | null): void {
  res
    .status(429)
    .setHeader('Retry-After', String(refusal.retryAfterSeconds))
    .json({
      jsonrpc: '2.0',
      id,
      error: {
        code: RATE_LIMITED_CODE,
        message: message(refusal),
        data: { retryAfterSeconds: refusal.retryAfterSeconds },
      },
    });
}

/** The SDK's HTTP+JSON error body, with google.rpc's RetryInfo as its detail. */
function tooManyRest(res: Response, refusal: Refusal): void {
  res
    .status(429)
    .setHeader('Retry-After', String(refusal.retryAfterSeconds))
    .type('application/a2a+json')
    .json({
      error: {
        code: 429,
        status: 'RESOURCE_EXHAUSTED',
        message: message(refusal),
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.RetryInfo',
            retryDelay: `${refusal.retryAfterSeconds}s`,
          },
        ],
      },
    });
}
