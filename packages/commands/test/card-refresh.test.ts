/**
 * `refreshCard`, the client's conditional re-read of the card, against the
 * example agent over real HTTP on loopback: an unchanged card is a 304, a
 * command registered or removed since is a new card with a new ETag.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCommands, refreshCard } from '../src/client/index.js';
import { startExampleAgent, type RunningAgent } from './support/example-agent.js';

let agent: RunningAgent;
beforeAll(async () => {
  agent = await startExampleAgent(400);
});
afterAll(() => agent.close());

/** Every request `refreshCard` makes, with its status. */
function countingFetch(seen: { ifNoneMatch: string | null; status: number }[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    seen.push({
      ifNoneMatch: new Headers(init?.headers).get('if-none-match'),
      status: response.status,
    });
    return response;
  };
}

describe('refreshCard', () => {
  it('reads the card whole without an ETag, then gets 304 for the same card', async () => {
    const seen: { ifNoneMatch: string | null; status: number }[] = [];
    const first = await refreshCard(agent.baseUrl, { fetch: countingFetch(seen) });
    if (!first.changed) throw new Error('the first read must return the card');
    expect(first.etag).toMatch(/^"/);
    expect(readCommands(first.card).map((command) => command.name)).toContain('help');

    const again = await refreshCard(agent.baseUrl, {
      etag: first.etag,
      fetch: countingFetch(seen),
    });
    expect(again).toEqual({ changed: false });
    expect(seen).toEqual([
      { ifNoneMatch: null, status: 200 },
      { ifNoneMatch: first.etag, status: 304 },
    ]);
  });

  it('returns the new card and ETag once a command is registered, and again once it is removed', async () => {
    const first = await refreshCard(agent.baseUrl);
    if (!first.changed) throw new Error('the first read must return the card');
    agent.server.registry.register({ name: 'fresh', description: 'New', run: () => 'ok' });
    let added;
    try {
      added = await refreshCard(agent.baseUrl, { etag: first.etag });
    } finally {
      agent.server.registry.unregister('fresh');
    }
    if (!added.changed) throw new Error('a registered command must change the card');
    expect(added.etag).not.toBe(first.etag);
    expect(readCommands(added.card).map((command) => command.name)).toContain('fresh');

    const removed = await refreshCard(agent.baseUrl, { etag: added.etag });
    if (!removed.changed) throw new Error('a removed command must change the card');
    expect(removed.etag).toBe(first.etag);
    expect(readCommands(removed.card).map((command) => command.name)).not.toContain('fresh');
  });

  it('fails with the URL and status when there is no card', async () => {
    await expect(refreshCard(`${agent.baseUrl}/nowhere/`)).rejects.toThrow(
      /Failed to fetch Agent Card from .*: 404/,
    );
  });
});
