/**
 * The card's ETag, as clients that follow an agent's commands use it (issue
 * 13, item 3): every card route answers a conditional re-read of an unchanged
 * card with 304, also when the request says `Cache-Control: no-cache` (which
 * fetch adds to every request that sets `If-None-Match`), and a custom command
 * file dropped in or removed changes the card and its tag. Real HTTP on loopback.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type TestHarness } from 'a2a-testing/harness';

let harness: TestHarness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.stop());

const cardUrl = () => `${harness.url}/.well-known/agent-card.json`;
/** The 1.0 card (the version named) and the card both versions read (no version named). */
const VERSIONS = [{ 'A2A-Version': '1.0' }, {}] as const;

async function until<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(50);
  }
}

const commandNames = (card: { capabilities: { extensions: { params?: unknown }[] } }) =>
  card.capabilities.extensions.flatMap(
    (extension) =>
      (extension.params as { commands?: { name: string }[] } | undefined)?.commands?.map(
        (command) => command.name,
      ) ?? [],
  );

describe('the card ETag', () => {
  for (const version of VERSIONS) {
    const named =
      'A2A-Version' in version ? 'the 1.0 card' : 'the card for clients naming no version';

    it(`${named}: a strong ETag, and 304 for If-None-Match with it, even with Cache-Control: no-cache`, async () => {
      const first = await fetch(cardUrl(), { headers: version });
      expect(first.status).toBe(200);
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^"[^"]+"$/);
      expect(first.headers.get('cache-control')).toBe('no-cache');

      // fetch itself adds `Cache-Control: no-cache` to a request with If-None-Match.
      const again = await fetch(cardUrl(), {
        headers: { ...version, 'If-None-Match': etag, 'Cache-Control': 'no-cache' },
      });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
      expect(again.headers.get('etag')).toBe(etag);

      const listed = await fetch(cardUrl(), {
        headers: { ...version, 'If-None-Match': `"other", W/${etag}` },
      });
      expect(listed.status).toBe(304);
      const stale = await fetch(cardUrl(), { headers: { ...version, 'If-None-Match': '"other"' } });
      expect(stale.status).toBe(200);
    });
  }

  it('a custom command file dropped in changes the card and its tag on both routes; removing it changes them back', async () => {
    const before = await Promise.all(
      VERSIONS.map(async (version) => {
        const response = await fetch(cardUrl(), { headers: version });
        return { version, etag: response.headers.get('etag')! };
      }),
    );
    const file = path.join(harness.dataDir, 'commands', 'standup.md');
    writeFileSync(
      file,
      '---\ndescription: Summarise the day\n---\n\nSummarise my day: $ARGUMENTS\n',
    );
    try {
      for (const { version, etag } of before) {
        const changed = await until(async () => {
          const response = await fetch(cardUrl(), {
            headers: { ...version, 'If-None-Match': etag },
          });
          return response.status === 200 ? response : undefined;
        }, 'the card to list /standup');
        expect(changed.headers.get('etag')).not.toBe(etag);
        expect(commandNames(await changed.json())).toContain('standup');
      }
    } finally {
      rmSync(file);
    }
    for (const { version, etag } of before) {
      await until(async () => {
        const response = await fetch(cardUrl(), { headers: { ...version, 'If-None-Match': etag } });
        return response.status === 304 ? response : undefined;
      }, 'the card without /standup to match its first tag again');
    }
  });

  it('a page on another origin may send If-None-Match and read the ETag (CORS)', async () => {
    const origin = 'http://elsewhere.example';
    const preflight = await fetch(cardUrl(), {
      method: 'OPTIONS',
      headers: {
        Origin: origin,
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'a2a-version,if-none-match',
      },
    });
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/if-none-match/i);
    const response = await fetch(cardUrl(), { headers: { Origin: origin, 'A2A-Version': '1.0' } });
    expect(response.headers.get('access-control-expose-headers')).toMatch(/(^|,\s*)ETag(,|$)/i);
  });
});
