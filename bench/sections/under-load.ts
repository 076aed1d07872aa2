import { Endpoint, sequential, type Call } from '../lib/load.js';
import { figure, percentile, type Figure } from '../lib/stats.js';

/**
 * Keeps `tasks` model turns streaming on as many tasks until stopped: each
 * worker sends a streaming message, reads the whole stream, and sends the next.
 */
export function streamingLoad(url: string, taskIds: string[]): { stop(): Promise<number> } {
  const endpoint = new Endpoint(`${url}/a2a/jsonrpc`, taskIds.length + 8);
  let running = true;
  let turns = 0;
  const workers = taskIds.map(async (taskId) => {
    while (running) {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendStreamingMessage',
        params: {
          message: {
            messageId: crypto.randomUUID(),
            role: 'ROLE_USER',
            taskId,
            parts: [{ text: 'tell me a story about load' }],
          },
        },
      });
      const { text } = await endpoint.request(body);
      if (text.includes('TASK_STATE_INPUT_REQUIRED')) turns++;
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all(workers);
      endpoint.close();
      return turns;
    },
  };
}

export interface UnderLoadResult {
  /** The p50 of each round's calls, in ms: idle, and while the turns stream. */
  idleP50: Figure;
  busyP50: Figure;
  /** The p99 of all calls, in ms. */
  idleP99: number;
  busyP99: number;
  turns: number;
}

/**
 * `call` (a command) idle and while `taskIds` stream model turns, in
 * alternating rounds: `calls` sequential calls idle, then the turns start and,
 * a second later, `calls` more. A noisy moment of the machine so falls on both
 * alike; the medians of the rounds are reported. One round first is not
 * counted: it compiles the server's command and turn paths, which then makes
 * both of the next rounds faster, the idle one most.
 */
export async function commandUnderLoad(
  url: string,
  call: Call,
  taskIds: string[],
  options: { rounds: number; calls: number },
): Promise<UnderLoadResult> {
  const round = async () => {
    const idle = await sequential(call, options.calls);
    const load = streamingLoad(url, taskIds);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const busy = await sequential(call, options.calls);
    return { idle, busy, turns: await load.stop() };
  };
  await round(); // warm up
  const idle: number[][] = [];
  const busy: number[][] = [];
  let turns = 0;
  for (let i = 0; i < options.rounds; i++) {
    const measured = await round();
    idle.push(measured.idle);
    busy.push(measured.busy);
    turns += measured.turns;
  }
  const p = (rounds: number[][], at: number) =>
    rounds.map((times) =>
      percentile(
        [...times].sort((x, y) => x - y),
        at,
      ),
    );
  const all = (rounds: number[][]) => rounds.flat().sort((x, y) => x - y);
  return {
    idleP50: figure(p(idle, 50)),
    busyP50: figure(p(busy, 50)),
    idleP99: percentile(all(idle), 99),
    busyP99: percentile(all(busy), 99),
    turns,
  };
}
