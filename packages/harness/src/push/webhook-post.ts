import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isAddressLiteral } from './webhook-address.js';
import {
  refuseUnlessPublic,
  resolveWithSystem,
  WebhookRefusedError,
  type AddressPolicy,
  type ResolveHost,
} from './webhook-url.js';

export interface WebhookRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
}

/** What one POST came to: the receiver's status, or why none was had. */
export type PostOutcome =
  | { kind: 'answered'; status: number }
  | { kind: 'failed'; reason: string }
  | { kind: 'refused'; reason: string };

export type PostWebhook = (request: WebhookRequest) => Promise<PostOutcome>;

/**
 * One webhook POST through node:http(s). The address is checked where the
 * connection is made: a literal before connecting, a host name in the lookup
 * the socket itself uses, so a name that resolves to a private address at
 * send time (whatever it resolved to when the config was made) is refused.
 * Redirects are never followed: a 3xx is an answer like any other.
 */
export function webhookPoster(
  policy: AddressPolicy,
  resolve: ResolveHost = resolveWithSystem,
): PostWebhook {
  const lookup = checkedLookup(policy, resolve);
  return (request) =>
    new Promise<PostOutcome>((settle) => {
      const url = new URL(request.url);
      if (!policy.allowPrivateNetworks && isAddressLiteral(url.hostname)) {
        try {
          refuseUnlessPublic(url.hostname, url.hostname.replace(/^\[|\]$/g, ''));
        } catch (error) {
          settle({ kind: 'refused', reason: (error as Error).message });
          return;
        }
      }
      const send = url.protocol === 'https:' ? https.request : http.request;
      const outgoing = send(url, {
        method: 'POST',
        headers: { ...request.headers, 'content-length': Buffer.byteLength(request.body) },
        lookup,
        signal: AbortSignal.timeout(request.timeoutMs),
      });
      outgoing.on('response', (response) => {
        // The answer's body is not read: drained, so that the socket is freed.
        response.resume();
        settle({ kind: 'answered', status: response.statusCode ?? 0 });
      });
      outgoing.on('error', (error) => {
        if (error instanceof WebhookRefusedError)
          settle({ kind: 'refused', reason: error.message });
        else if (error.name === 'AbortError' || error.name === 'TimeoutError')
          settle({ kind: 'failed', reason: `no answer within ${request.timeoutMs} ms` });
        else settle({ kind: 'failed', reason: error.message });
      });
      outgoing.end(request.body);
    });
}

/** A socket lookup that resolves with `resolve`, then refuses the name unless every address is allowed. */
function checkedLookup(policy: AddressPolicy, resolve: ResolveHost): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (resolved) => {
        const family = typeof options.family === 'number' ? options.family : 0;
        const addresses = resolved
          .map((address) => ({ address, family: isIP(address) }))
          .filter((entry) => entry.family !== 0 && (family === 0 || entry.family === family));
        try {
          if (addresses.length === 0)
            throw new WebhookRefusedError(`The webhook host "${hostname}" has no address.`);
          if (!policy.allowPrivateNetworks) {
            for (const entry of addresses) refuseUnlessPublic(hostname, entry.address);
          }
        } catch (error) {
          callback(error as NodeJS.ErrnoException, '', 0);
          return;
        }
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}
