import {
  loneThroughputInTurn,
  sendCall,
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
 * with more in flight, they take turns run by run. One round first is not
 * counted: servers just started answer it up to twice as slowly (their code is
 * still being compiled), and a figure from a round still warming would rank the
 * subjects by how fast they warm up.
 */
export async function roundTrip(
  subjects: Subject[],
  options: { calls: number; rounds: number; inFlight: number[]; secondsEach: number },
): Promise<Record<string, RoundTripResult>> {
  const perRound = Math.ceil(options.calls / options.rounds);
  const msPerRound = (options.secondsEach * 1000) / options.rounds;
  const calls = subjects.map((s) => s.call);
  const round = async () => {
    const times = await sequentialInTurn(calls, perRound);
    const rates = new Map<number, Array<{ perSecond: number; errors: number }>>();
    for (const k of options.inFlight) {
      if (k === 1) rates.set(k, await loneThroughputInTurn(calls, msPerRound));
      else {
        const each: Array<{ perSecond: number; errors: number }> = [];
        for (const call of calls) each.push(await throughput(call, k, msPerRound));
        rates.set(k, each);
      }
    }
    return { times, rates };
  };
  const warmUp = await round();
  const p50s: Record<string, number[]> = {};
  const p99s: Record<string, number[]> = {};
  const rates: Record<string, Record<number, number[]>> = {};
  const errors: Record<string, number> = {};
  for (const [index, s] of subjects.entries()) {
    p50s[s.name] = [];
    p99s[s.name] = [];
    rates[s.name] = Object.fromEntries(options.inFlight.map((k) => [k, []]));
    // A call that fails fails the figures, in whichever round it failed.
    errors[s.name] = [...warmUp.rates.values()].reduce((sum, each) => sum + each[index]!.errors, 0);
  }
  for (let i = 0; i < options.rounds; i++) {
    const measured = await round();
    for (const [index, s] of subjects.entries()) {
      const times = measured.times[index]!.sort((a, b) => a - b);
      p50s[s.name]!.push(percentile(times, 50));
      p99s[s.name]!.push(percentile(times, 99));
      for (const [k, each] of measured.rates) {
        rates[s.name]![k]!.push(each[index]!.perSecond);
        errors[s.name]! += each[index]!.errors;
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
