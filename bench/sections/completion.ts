import { Endpoint, sendCall, type Call } from '../lib/load.js';
import { roundTrip, type RoundTripResult } from './round-trip.js';

/**
 * A completion request (`POST /a2a/complete`, the command completion
 * extension) for `command`'s first argument, typed as `value`: a Call that
 * succeeds on a 200 with values.
 */
export function completionCall(baseUrl: string, command: string, value = ''): Call {
  const endpoint = new Endpoint(`${baseUrl}/a2a/complete`);
  const body = JSON.stringify({ command, argument: { index: 0, value } });
  return async () => {
    const { status, text } = await endpoint.request(body);
    return status === 200 && text.includes('"values":[{');
  };
}

/**
 * What a completion round trip costs beside the `/help` command on the same
 * harness and task: `/model `'s values (the model catalog) and `/help `'s
 * (the registry), measured in the same rounds as `/help`.
 */
export function completionRoundTrip(
  baseUrl: string,
  taskId: string,
  plan: { calls: number; rounds: number; inFlight: number[]; secondsEach: number },
): Promise<Record<string, RoundTripResult>> {
  const rpc = new Endpoint(`${baseUrl}/a2a/jsonrpc`);
  return roundTrip(
    [
      { name: '/help', call: sendCall(rpc, '/help', taskId) },
      { name: 'complete /model', call: completionCall(baseUrl, 'model') },
      { name: 'complete /help', call: completionCall(baseUrl, 'help') },
    ],
    plan,
  );
}
