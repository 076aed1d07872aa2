import { TaskState } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { SETTINGS_KEY } from '../settings.js';
import type { Turn } from '../turns/turn-queue.js';
import type { HarnessMetrics, TurnEnding } from './harness-metrics.js';

type RunTurn = (turn: Turn, context: ServerCallContext) => Promise<void>;

/**
 * A turn runner that counts each run's ending. Cancel and shutdown abort a
 * turn with their name as the reason (LocalTurns, ClusterTurns); a model error
 * is stored as a note; a throw is left to the turn handler, which ends the turn.
 */
export function meteredTurns(runTurn: RunTurn, metrics: HarnessMetrics): RunTurn {
  return async (turn, context) => {
    try {
      await runTurn(turn, context);
    } catch (error) {
      metrics.turnEnded('failed');
      throw error;
    }
    metrics.turnEnded(endingOf(turn));
  };
}

function endingOf(turn: Turn): TurnEnding {
  if (turn.abort.signal.aborted) {
    const reason: unknown = turn.abort.signal.reason;
    const said = reason instanceof Error ? reason.message : String(reason);
    return said === 'shutdown' ? 'shutdown' : 'canceled';
  }
  const ended = turn.ended;
  if (!ended || ended.state !== TaskState.TASK_STATE_INPUT_REQUIRED) return 'abandoned';
  const tag = ended.message?.metadata?.[SETTINGS_KEY] as { note?: unknown } | undefined;
  return tag?.note === 'model-error' ? 'model_error' : 'answered';
}
