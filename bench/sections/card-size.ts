import { CommandRegistry } from 'a2a-commands';
import { complete } from 'a2a-commands/client';
import { Endpoint, throughput } from '../lib/load.js';
import { startServer } from '../lib/servers.js';
import { figure, type Figure } from '../lib/stats.js';

const warmUpMs = 2000;

/** Agent-card GET throughput for cards with more and more commands, measured in the same rounds. */
export async function cardThroughput(
  totals: number[],
  options: { rounds: number; secondsEach: number; inFlight: number },
): Promise<Record<number, Figure>> {
  const servers = await Promise.all(
    totals.map((total) =>
      startServer(`card-${total}`, 'bench/servers/example-agent.ts', [
        '--commands',
        String(total - 2),
      ]),
    ),
  );
  try {
    // As real clients do (fetch, browsers), the load generator accepts gzip.
    const endpoints = servers.map(
      (s) =>
        new Endpoint(`${s.url}/.well-known/agent-card.json`, 256, { 'accept-encoding': 'gzip' }),
    );
    const rates: number[][] = totals.map(() => []);
    for (const [i, server] of servers.entries()) {
      const card = (await (await fetch(`${server.url}/.well-known/agent-card.json`)).json()) as {
        capabilities: { extensions: { params?: { commands?: unknown[] } }[] };
      };
      const listed = card.capabilities.extensions.find((e) => e.params?.commands)?.params?.commands;
      if (listed?.length !== totals[i])
        throw new Error(`card ${i} lists ${listed?.length} commands, not ${totals[i]}`);
    }
    const get = (endpoint: Endpoint) => async () => (await endpoint.request()).status === 200;
    // A server just started serves its first seconds at half speed or less (its
    // connections open, its code is compiled); that is not what a card's size costs.
    for (const endpoint of endpoints) await throughput(get(endpoint), options.inFlight, warmUpMs);
    const msPerRound = (options.secondsEach * 1000) / options.rounds;
    for (let round = 0; round < options.rounds; round++) {
      for (const [i, endpoint] of endpoints.entries()) {
        const result = await throughput(get(endpoint), options.inFlight, msPerRound);
        rates[i]!.push(result.perSecond);
      }
    }
    endpoints.forEach((e) => e.close());
    return Object.fromEntries(totals.map((total, i) => [total, figure(rates[i]!)]));
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

/** Microseconds `complete()` takes per keystroke while typing command names over `count` commands. */
export function completePerKeystroke(count: number, repeats: number, limit?: number): Figure {
  const registry = new CommandRegistry();
  for (let i = 0; i < count; i++) {
    registry.register({
      name: `command-${i}`,
      description: `Command ${i}`,
      argument_hint: '[<x>]',
      run: () => '',
    });
  }
  const commands = registry.specs() as ReturnType<CommandRegistry['specs']>;
  const typed = ['help', 'command-5', 'cmd9', 'model', 'c-77', 'zz'];
  const keystrokes = typed.flatMap((word) =>
    Array.from({ length: word.length + 1 }, (_, i) => `/${word.slice(0, i)}`),
  );
  const rounds: number[] = [];
  for (let round = 0; round < 5; round++) {
    const start = process.hrtime.bigint();
    for (let r = 0; r < repeats; r++)
      for (const input of keystrokes) complete(input, commands, { limit });
    rounds.push(Number(process.hrtime.bigint() - start) / 1e3 / (repeats * keystrokes.length));
  }
  return figure(rounds);
}
