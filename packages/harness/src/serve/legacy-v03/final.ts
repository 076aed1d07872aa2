import type { RequestHandler, Response } from 'express';
import { requestsLegacyVersion } from './version.js';

/*
 * In 0.3 a status-update carries `final: true` when it is the last event of
 * the stream for this interaction, and 0.3 agents set it when a turn ends in
 * input-required. The SDK's translation sets it only for terminal states
 * (completed, canceled, failed, rejected), so a 0.3 client that waits for
 * `final` would wait past the end of every turn here. Turn streams end on
 * input-required (and would on auth-required), so those are final as well.
 */

/** States that end a stream without ending the task, as 0.3 writes them per binding. */
const PAUSED_STATES = new Set([
  'input-required',
  'auth-required',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_AUTH_REQUIRED',
]);

interface StatusUpdate {
  kind?: string;
  status?: { state?: string };
  final?: boolean;
}

/** The status-update an SSE event carries: JSON-RPC's `result`, or HTTP+JSON's `statusUpdate`. */
function statusUpdateOf(event: unknown): StatusUpdate | undefined {
  if (typeof event !== 'object' || event === null) return undefined;
  const { result, statusUpdate } = event as { result?: StatusUpdate; statusUpdate?: StatusUpdate };
  if (result?.kind === 'status-update') return result;
  return statusUpdate;
}

/** One SSE event as the SDK writes it (`data: {...}\n\n`), marked final when it pauses the task. */
export function markPausedFinal(chunk: string): string {
  if (!chunk.startsWith('data: ') || !chunk.endsWith('\n\n')) return chunk;
  let event: unknown;
  try {
    event = JSON.parse(chunk.slice('data: '.length));
  } catch {
    return chunk;
  }
  const update = statusUpdateOf(event);
  const state = update?.status?.state;
  if (!update || update.final === true || !state || !PAUSED_STATES.has(state)) return chunk;
  update.final = true;
  return `data: ${JSON.stringify(event)}\n\n`;
}

/** Rewrites the SSE events of a 0.3 request's response; other requests pass untouched. */
export const legacyFinalFlag: RequestHandler = (req, res, next) => {
  if (req.method === 'POST' && requestsLegacyVersion(req)) rewriteEvents(res);
  next();
};

function rewriteEvents(res: Response): void {
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  res.write = ((chunk: unknown, ...rest: unknown[]) =>
    write(
      typeof chunk === 'string' && res.getHeader('content-type') === 'text/event-stream'
        ? markPausedFinal(chunk)
        : chunk,
      ...rest,
    )) as Response['write'];
}
