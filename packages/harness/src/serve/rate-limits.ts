import { A2AError } from '@a2a-js/sdk/errors';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { CommandError } from 'a2a-commands';
import type { CommandsRequestHandlerOptions } from 'a2a-commands/server';
import type { Limits } from '../config/limits.js';
import { callerAddress, requestOf } from '../request-scope.js';
import { answerRateLimited, rateLimitMessage } from './rate-limit-answer.js';
import { TokenBuckets, type Refusal } from './token-buckets.js';

export { RATE_LIMITED_CODE } from './rate-limit-answer.js';

/** A command's reply code when a turn it would start is over the caller's limit. */
export const RATE_LIMITED_REPLY_CODE = 'rate-limited';

type RateLimits = Pick<
  Limits,
  'commandsPerMinute' | 'commandBurst' | 'turnsPerMinute' | 'turnBurst'
>;

type Admit = NonNullable<CommandsRequestHandlerOptions['admit']>;

/** A call refused for its caller's rate limit; whatever the binding, it carries the wait. */
export class RateLimitedError extends A2AError {
  constructor(readonly retryAfterSeconds: number) {
    super(rateLimitMessage(retryAfterSeconds));
  }
}

/**
 * Token buckets per caller, one set for commands and one for turns, so that a
 * caller who spends its turns can still run `/help`, and the other way round.
 * Charged by what the command path decided runs (`admit`), not by a reading of
 * the request of its own: a command that starts a turn (`/spawn`) spends a
 * turn too, and whatever way a message was spelled or routed, it is charged
 * once it is known what it runs. Other calls are not limited. The caller is
 * its principal with API keys, its address without.
 */
export class RateLimiter {
  private readonly commands?: TokenBuckets;
  private readonly turns?: TokenBuckets;

  constructor(limits: RateLimits) {
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

  /** Whether any limit is on: without one there is nothing to charge. */
  get active(): boolean {
    return this.commands !== undefined || this.turns !== undefined;
  }

  /**
   * The commands handler's `admit`. A refused call is answered 429 with
   * `Retry-After` in its binding's shape; a refused turn that a command
   * stages becomes that command's reply, and nothing of it is stored.
   */
  readonly admit: Admit = (run, context, stagedBy) => {
    const buckets = run === 'command' ? this.commands : this.turns;
    const refusal = buckets?.take(callerOf(context));
    if (!refusal) return;
    if (stagedBy !== undefined) {
      throw new CommandError(
        `/${stagedBy} starts a turn, and this caller is over its turn limit; retry after ${refusal.retryAfterSeconds} s.`,
        { code: RATE_LIMITED_REPLY_CODE },
      );
    }
    throw refused(context, refusal);
  };
}

function refused(context: ServerCallContext, refusal: Refusal): RateLimitedError {
  const req = requestOf(context);
  if (req) answerRateLimited(req, refusal);
  return new RateLimitedError(refusal.retryAfterSeconds);
}

function callerOf(context: ServerCallContext): string {
  const { user } = context;
  return user?.isAuthenticated ? `principal:${user.userName}` : `address:${callerAddress(context)}`;
}
