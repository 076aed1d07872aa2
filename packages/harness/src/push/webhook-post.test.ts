/**
 * The webhook POST against real receivers on loopback: the address rule is
 * applied to the address the socket connects to, at send time, and a redirect
 * is an answer, never followed.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { checkWebhookUrl, type ResolveHost } from './webhook-url.js';
import { webhookPoster } from './webhook-post.js';

interface Receiver {
  port: number;
  requests: { url: string; headers: http.IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

const open: Receiver[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((receiver) => receiver.close()));
});

async function receiver(
  answer: (response: http.ServerResponse) => void = (response) => response.end(),
): Promise<Receiver> {
  const requests: Receiver['requests'] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      requests.push({ url: request.url ?? '', headers: request.headers, body });
      answer(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const made: Receiver = {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  open.push(made);
  return made;
}

const request = (url: string) => ({
  url,
  body: '{"statusUpdate":{}}',
  headers: { 'content-type': 'application/a2a+json', 'x-a2a-notification-token': 't0k' },
  timeoutMs: 2_000,
});

describe('a webhook POST', () => {
  it('delivers the body and headers when the address is allowed', async () => {
    const hook = await receiver();
    const post = webhookPoster({ allowPrivateNetworks: true });
    const outcome = await post(request(`http://127.0.0.1:${hook.port}/hook?k=1`));
    expect(outcome).toEqual({ kind: 'answered', status: 200 });
    expect(hook.requests).toHaveLength(1);
    expect(hook.requests[0]).toMatchObject({
      url: '/hook?k=1',
      body: '{"statusUpdate":{}}',
      headers: { 'x-a2a-notification-token': 't0k', 'content-type': 'application/a2a+json' },
    });
  });

  it('refuses a literal loopback address without connecting', async () => {
    const hook = await receiver();
    const outcome = await webhookPoster({ allowPrivateNetworks: false })(
      request(`http://127.0.0.1:${hook.port}/hook`),
    );
    expect(outcome.kind).toBe('refused');
    expect(hook.requests).toHaveLength(0);
  });

  it('checks the name again at send time: a name that now resolves to loopback is refused', async () => {
    const hook = await receiver();
    const url = `http://hooks.example.test:${hook.port}/hook`;
    // At create time the name resolved to a public address...
    const publicThen: ResolveHost = () => Promise.resolve(['93.184.215.14']);
    await expect(
      checkWebhookUrl(url, { allowPrivateNetworks: false }, publicThen),
    ).resolves.toBeInstanceOf(URL);
    // ...and now it resolves to loopback (DNS rebinding): the socket's own lookup refuses it.
    const loopbackNow: ResolveHost = () => Promise.resolve(['127.0.0.1']);
    const outcome = await webhookPoster({ allowPrivateNetworks: false }, loopbackNow)(request(url));
    expect(outcome).toMatchObject({ kind: 'refused' });
    expect(outcome.kind === 'refused' && outcome.reason).toContain(
      'hooks.example.test (127.0.0.1)',
    );
    expect(hook.requests).toHaveLength(0);
    // The same name, allowed, reaches the receiver through the same lookup.
    const allowed = await webhookPoster({ allowPrivateNetworks: true }, loopbackNow)(request(url));
    expect(allowed).toEqual({ kind: 'answered', status: 200 });
    expect(hook.requests).toHaveLength(1);
  });

  it('refuses an IPv4-mapped loopback resolved for a name', async () => {
    const hook = await receiver();
    const mapped: ResolveHost = () => Promise.resolve(['::ffff:127.0.0.1']);
    const outcome = await webhookPoster(
      { allowPrivateNetworks: false },
      mapped,
    )(request(`http://mapped.example.test:${hook.port}/`));
    expect(outcome.kind).toBe('refused');
    expect(hook.requests).toHaveLength(0);
  });

  it('does not follow a redirect, to loopback or anywhere', async () => {
    const target = await receiver();
    const redirecting = await receiver((response) => {
      response.writeHead(302, { location: `http://127.0.0.1:${target.port}/internal` }).end();
    });
    const outcome = await webhookPoster({ allowPrivateNetworks: true })(
      request(`http://127.0.0.1:${redirecting.port}/hook`),
    );
    expect(outcome).toEqual({ kind: 'answered', status: 302 });
    expect(redirecting.requests).toHaveLength(1);
    expect(target.requests).toHaveLength(0);
  });

  it('gives up on a receiver that does not answer within the timeout', async () => {
    const silent = await receiver(() => undefined);
    const outcome = await webhookPoster({ allowPrivateNetworks: true })({
      ...request(`http://127.0.0.1:${silent.port}/hook`),
      timeoutMs: 200,
    });
    expect(outcome).toEqual({ kind: 'failed', reason: 'no answer within 200 ms' });
  });
});
