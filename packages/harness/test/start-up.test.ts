/**
 * Start-up: the server listens before the harness is ready (the card must name
 * the port `--port 0` picked). No request that arrives in that window may wait
 * unanswered: it gets 503 with Retry-After, and `/healthz` answers at once.
 * `/readyz` says when the harness can serve: database open and migrated, and
 * on PostgreSQL the LISTEN connection up.
 */
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { rpc, userText } from 'a2a-testing/http';
import { spawnHarness } from 'a2a-testing/process';
import { processStore, storeKinds } from 'a2a-testing/stores';

/** Longer than any answer a started harness gives to one command: a request this slow hangs. */
const HANG_MS = 10_000;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Outcome {
  path: string;
  status?: number;
  retryAfter?: string | null;
  /** Connection refused: nobody listened yet, which is no hang. */
  refused?: boolean;
  hung?: boolean;
}

/** One request; what it came to. */
async function probe(base: string, route: string): Promise<Outcome> {
  const init: RequestInit =
    route === '/a2a/jsonrpc'
      ? {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'SendMessage',
            params: { message: userText('/help') },
          }),
        }
      : {};
  try {
    const response = await fetch(`${base}${route}`, {
      ...init,
      signal: AbortSignal.timeout(HANG_MS),
    });
    await response.arrayBuffer();
    return {
      path: route,
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
    };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    if (cause?.code === 'ECONNREFUSED') return { path: route, refused: true };
    if ((error as Error).name === 'TimeoutError') return { path: route, hung: true };
    throw error;
  }
}

describe.each(storeKinds)('on %s', (kind) => {
  it('no request hangs while the CLI starts: 503 with Retry-After until ready, /healthz at once', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-start-'));
    const store = await processStore(kind);
    // Hammered from the moment it is spawned, by several clients at once.
    const outcomes: Outcome[] = [];
    let started = false;
    const hammer = async (route: string) => {
      while (!started) {
        outcomes.push(await probe(base, route));
        if (outcomes.at(-1)!.refused) await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    const spawned = spawnHarness(['--port', String(port), '--data', dataDir, ...store.flags]);
    const clients = [
      ...Array.from({ length: 4 }, () => hammer('/a2a/jsonrpc')),
      hammer('/healthz'),
      hammer('/readyz'),
    ];
    const running = await spawned;
    started = true;
    try {
      await Promise.all(clients);
      expect(outcomes.filter((o) => o.hung)).toEqual([]);
      const answered = outcomes.filter((o) => !o.refused);
      const starting = answered.filter((o) => o.status === 503);
      // The window exists (the migrations alone take a while) and was hit.
      expect(starting.length).toBeGreaterThan(0);
      for (const o of starting) {
        expect(o.path).not.toBe('/healthz');
        expect(o.retryAfter).toBe('1');
      }
      for (const o of answered) expect([200, 503]).toContain(o.status);
      expect(answered.filter((o) => o.path === '/healthz').every((o) => o.status === 200)).toBe(
        true,
      );

      // Ready now: commands are answered, and /readyz says why.
      const reply = await rpc(running.url, 'SendMessage', { message: userText('/help') });
      expect(reply.body.result.task.status.message.parts[0].text).toContain('/help');
      const ready = await fetch(`${running.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({
        ready: true,
        database: 'open',
        migrated: true,
        ...(kind === 'postgres' ? { listening: true } : {}),
      });
      expect(await (await fetch(`${running.url}/healthz`)).json()).toEqual({ ok: true });
    } finally {
      running.child.kill('SIGTERM');
      await running.exited;
    }
  }, 60_000);
});
