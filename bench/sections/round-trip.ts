import {
  loneThroughputInTurn,
  sendCall,
  sequential,
  sequentialInTurn,
  throughput,
  type Call,
  type Endpoint,
} from '../lib/load.js';
import { figure, percentile, type Figure } from '../lib/stats.js';

export interface Subject {
  name: string;
  call: Call;
}

export interface RoundTripResult {
  p50: Figure;
  p99: Figure;
  /** Calls per second, by requests in flight. */
  throughput: Record<number, Figure>;
  errors: number;
}

/**
 * Every subject measured in the same rounds, so that a noisy moment hits all of
 * them: the median of the rounds is reported. One call at a time (the latencies
 * and the throughput at 1 in flight), the subjects take turns call by call;
 * with more in flight, they take turns run by run.
 */
export async function roundTrip(
  subjects: Subject[],
  options: { calls: number; rounds: number; inFlight: number[]; secondsEach: number },
): Promise<Record<string, RoundTripResult>> {
  const p50s: Record<string, number[]> = {};
  const p99s: Record<string, number[]> = {};
  const rates: Record<string, Record<number, number[]>> = {};
  const errors: Record<string, number> = {};
  for (const s of subjects) {
    p50s[s.name] = [];
    p99s[s.name] = [];
    rates[s.name] = Object.fromEntries(options.inFlight.map((k) => [k, []]));
    errors[s.name] = 0;
    await sequential(s.call, 50); // warm up
  }
  const perRound = Math.ceil(options.calls / options.rounds);
  const msPerRound = (options.secondsEach * 1000) / options.rounds;
  for (let round = 0; round < options.rounds; round++) {
    const timesInTurn = await sequentialInTurn(
      subjects.map((s) => s.call),
      perRound,
    );
    for (const [index, s] of subjects.entries()) {
      const times = timesInTurn[index]!.sort((a, b) => a - b);
      p50s[s.name]!.push(percentile(times, 50));
      p99s[s.name]!.push(percentile(times, 99));
    }
    for (const k of options.inFlight) {
      if (k === 1) {
        const lone = await loneThroughputInTurn(
          subjects.map((s) => s.call),
          msPerRound,
        );
        for (const [index, s] of subjects.entries()) {
          rates[s.name]![k]!.push(lone[index]!.perSecond);
          errors[s.name]! += lone[index]!.errors;
        }
        continue;
      }
      for (const s of subjects) {
        const result = await throughput(s.call, k, msPerRound);
        rates[s.name]![k]!.push(result.perSecond);
        errors[s.name]! += result.errors;
      }
    }
  }
  return Object.fromEntries(
    subjects.map((s) => [
      s.name,
      {
        p50: figure(p50s[s.name]!),
        p99: figure(p99s[s.name]!),
        throughput: Object.fromEntries(
          options.inFlight.map((k) => [k, figure(rates[s.name]![k]!)]),
        ),
        errors: errors[s.name]!,
      },
    ]),
  );
}

/** Creates a task on `endpoint` with one ordinary message and returns its id. */
export async function newTask(endpoint: Endpoint, text = 'hello'): Promise<string> {
  const { text: body } = await endpoint.request(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] } },
    }),
  );
  const id = (JSON.parse(body) as { result?: { task?: { id?: string } } }).result?.task?.id;
  if (!id) throw new Error(`could not create a task: ${body.slice(0, 300)}`);
  return id;
}

export { sendCall };
