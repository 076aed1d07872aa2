import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { CardWatch } from './card-watch.js';

/** A card server on loopback whose card (and ETag) the test changes; it counts 200s and 304s. */
async function cardServer(): Promise<{
  url: string;
  server: Server;
  setName(name: string): void;
  answers: number[];
}> {
  let name = 'first';
  const answers: number[] = [];
  const server = createServer((req, res) => {
    const etag = `"${name}"`;
    if (req.headers['if-none-match'] === etag) {
      answers.push(304);
      res.statusCode = 304;
      res.end();
      return;
    }
    answers.push(200);
    res.setHeader('etag', etag);
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        name,
        description: '',
        version: '1',
        supportedInterfaces: [],
        capabilities: {},
        defaultInputModes: [],
        defaultOutputModes: [],
        skills: [],
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, server, setName: (next) => (name = next), answers };
}

const closing: (() => void)[] = [];
afterEach(() => closing.splice(0).forEach((close) => close()));

it('reads the card again with its ETag: a 304 while unchanged, the new card once it changes', async () => {
  const agent = await cardServer();
  closing.push(() => agent.server.close());
  const seen: string[] = [];
  const watch = new CardWatch({
    url: agent.url,
    etag: '"first"',
    changed: (card) => seen.push(card.name),
  });
  closing.push(() => watch.close());
  await watch.check();
  expect(agent.answers).toEqual([304]);
  expect(seen).toEqual([]);
  agent.setName('second');
  await watch.check();
  await watch.check();
  expect(agent.answers).toEqual([304, 200, 304]);
  expect(seen).toEqual(['second']);
});

it('says when the agent stops answering and when it answers again', async () => {
  const agent = await cardServer();
  const { port } = new URL(agent.url);
  await new Promise((resolve) => agent.server.close(resolve));
  const events: string[] = [];
  const watch = new CardWatch({
    url: agent.url,
    changed: () => events.push('changed'),
    reachable: (error) => events.push(error === undefined ? 'back' : 'down'),
  });
  closing.push(() => watch.close());
  await watch.check();
  await watch.check();
  expect(watch.offline).toBe(true);
  expect(events).toEqual(['down']);
  const again = createServer(agent.server.listeners('request')[0] as never);
  await new Promise<void>((resolve) => again.listen(Number(port), '127.0.0.1', resolve));
  closing.push(() => again.close());
  await watch.check();
  expect(watch.offline).toBe(false);
  expect(events).toEqual(['down', 'back', 'changed']);
});

it('takes the agent as down when another call says so, and reports it back on the next answer', async () => {
  const agent = await cardServer();
  closing.push(() => agent.server.close());
  const events: string[] = [];
  const watch = new CardWatch({
    url: agent.url,
    etag: '"first"',
    changed: () => events.push('changed'),
    reachable: (error) => events.push(error === undefined ? 'back' : `down: ${String(error)}`),
  });
  closing.push(() => watch.close());
  watch.lost('a stream broke');
  expect(watch.offline).toBe(true);
  watch.lost('again');
  await watch.check();
  expect(watch.offline).toBe(false);
  expect(events).toEqual(['down: a stream broke', 'back']);
});
