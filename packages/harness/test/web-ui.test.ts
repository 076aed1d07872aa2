// @vitest-environment node
/**
 * How the harness serves the web chat (`/ui`) and lets pages on other origins
 * use the agent (CORS on the A2A routes). Real HTTP on loopback.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import os from 'node:os';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { listen } from 'a2a-testing/http';
import { WEB_UI_DIST, webUiRoutes } from '../src/serve/web-ui.js';

const HARNESS_ROOT = fileURLToPath(new URL('..', import.meta.url));
const WEB_ROOT = path.resolve(HARNESS_ROOT, '../web');

describe('where the harness looks for the build', () => {
  it('is the dist folder of the a2a-web-chat package it depends on, found as Node finds packages', () => {
    expect(WEB_UI_DIST).toBe(path.join(WEB_ROOT, 'dist'));
    const manifest = JSON.parse(readFileSync(path.join(HARNESS_ROOT, 'package.json'), 'utf8'));
    expect(manifest.dependencies['a2a-web-chat']).toBeDefined();
  });
});

describe('/ui', () => {
  it('answers 503 saying to run npm run build while the build is missing, and never crashes', async () => {
    const missing = path.join(mkdtempSync(path.join(os.tmpdir(), 'web-ui-')), 'dist');
    const server = await listen(express().use(webUiRoutes({ dir: missing })));
    try {
      for (const url of ['/ui', '/ui/', '/ui/assets/index.js']) {
        const response = await fetch(`${server.baseUrl}${url}`);
        expect(response.status).toBe(503);
        expect(await response.text()).toContain('npm run build');
      }
      // Other routes are not its business.
      expect((await fetch(`${server.baseUrl}/elsewhere`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('serves the built files once they exist, without a restart, with cache headers', async () => {
    const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'web-ui-')), 'dist');
    const server = await listen(express().use(webUiRoutes({ dir })));
    try {
      expect((await fetch(`${server.baseUrl}/ui/`)).status).toBe(503);
      mkdirSync(path.join(dir, 'assets'), { recursive: true });
      writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>chat</title>');
      writeFileSync(path.join(dir, 'assets', 'app-abc123.js'), 'console.log(1)');

      const page = await fetch(`${server.baseUrl}/ui/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(page.headers.get('cache-control')).toBe('no-cache');
      expect(await page.text()).toContain('<title>chat</title>');

      const bare = await fetch(`${server.baseUrl}/ui?agent=x`, { redirect: 'manual' });
      expect([200, 301]).toContain(bare.status);
      if (bare.status === 301) expect(bare.headers.get('location')).toBe('/ui/?agent=x');

      const asset = await fetch(`${server.baseUrl}/ui/assets/app-abc123.js`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('cache-control')).toContain('immutable');
      expect((await fetch(`${server.baseUrl}/ui/nope.js`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});

/** A GET with exactly these request headers (fetch adds its own Accept-Encoding). */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode!,
          headers: response.headers,
          body: Buffer.concat(chunks),
        }),
      );
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

describe('serve() with webUiDir', () => {
  it('serves /ui from that folder instead of the installed web chat', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'web-ui-'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>a build of its own</title>');
    const harness = await startHarness({ webUiDir: dir });
    try {
      const page = await fetch(`${harness.url}/ui/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<title>a build of its own</title>');
    } finally {
      await harness.stop();
    }
  });
});

describe('/ui compression', () => {
  it('sends the script brotli or gzip compressed, as the browser accepts, and plain otherwise', async () => {
    const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'web-ui-')), 'dist');
    mkdirSync(path.join(dir, 'assets'), { recursive: true });
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>chat</title>');
    const script = 'console.log("a line of the chat\'s script");\n'.repeat(2000);
    writeFileSync(path.join(dir, 'assets', 'app-abc123.js'), script);
    const server = await listen(express().use(webUiRoutes({ dir })));
    const url = `${server.baseUrl}/ui/assets/app-abc123.js`;
    try {
      const brotli = await rawGet(url, { 'Accept-Encoding': 'gzip, deflate, br' });
      expect(brotli.status).toBe(200);
      expect(brotli.headers['content-encoding']).toBe('br');
      expect(brotli.headers['vary']).toContain('Accept-Encoding');
      expect(brotli.headers['cache-control']).toContain('immutable');
      expect(brotliDecompressSync(brotli.body).toString()).toBe(script);
      expect(brotli.body.length).toBeLessThan(script.length / 10);

      const gzip = await rawGet(url, { 'Accept-Encoding': 'gzip' });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.body).toString()).toBe(script);

      const plain = await rawGet(url, {});
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.toString()).toBe(script);
    } finally {
      await server.close();
    }
  });
});

describe('CORS on the A2A routes', () => {
  let harness: TestHarness;
  const ORIGIN = 'http://elsewhere.example';
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness.stop();
  });

  it('the card is public to any origin', async () => {
    const response = await fetch(`${harness.url}/.well-known/agent-card.json`, {
      headers: { Origin: ORIGIN },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it.each(['/a2a/jsonrpc', '/a2a/rest/message:send'])(
    '%s answers the preflight with the A2A headers allowed',
    async (route) => {
      const response = await fetch(`${harness.url}${route}`, {
        method: 'OPTIONS',
        headers: {
          Origin: ORIGIN,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type,a2a-version,a2a-extensions',
        },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-methods')).toContain('POST');
      expect(response.headers.get('access-control-allow-headers')).toContain('a2a-extensions');
    },
  );

  it('a cross-origin call gets the answer, and may read the A2A-Extensions echo', async () => {
    const response = await fetch(`${harness.url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: {
        Origin: ORIGIN,
        'content-type': 'application/json',
        'A2A-Version': '1.0',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'none' } }),
    });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')).toContain('A2A-Extensions');
    expect((await response.json()).error).toBeDefined();
  });
});
