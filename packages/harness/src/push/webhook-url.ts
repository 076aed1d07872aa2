import { lookup } from 'node:dns/promises';
import { addressRange, isAddressLiteral } from './webhook-address.js';

/** The addresses a host name resolves to, as the operating system resolves it. */
export type ResolveHost = (hostname: string) => Promise<string[]>;

export const resolveWithSystem: ResolveHost = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** A webhook URL the harness will not call; the message says why, for the client. */
export class WebhookRefusedError extends Error {
  override name = 'WebhookRefusedError';
}

/** What may be sent to: `allowPrivateNetworks` lets loopback and private addresses through. */
export interface AddressPolicy {
  allowPrivateNetworks: boolean;
}

/**
 * Parses a webhook URL and checks what it names, literal address or host
 * name (resolved now, every address it has): the create-time check. The same
 * rule is applied again to the address each delivery connects to.
 */
export async function checkWebhookUrl(
  text: string,
  policy: AddressPolicy,
  resolve: ResolveHost = resolveWithSystem,
): Promise<URL> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WebhookRefusedError(`The webhook URL "${clip(text)}" is not a valid URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new WebhookRefusedError(
      `The webhook URL must be http or https; "${url.protocol}" is not served.`,
    );
  }
  if (url.username || url.password) {
    throw new WebhookRefusedError(
      'The webhook URL may not carry a user name or password; send credentials as the config\'s "authentication" instead.',
    );
  }
  if (policy.allowPrivateNetworks) return url;
  const addresses = isAddressLiteral(url.hostname)
    ? [url.hostname]
    : await resolve(url.hostname).catch(() => {
        throw new WebhookRefusedError(
          `The webhook host "${url.hostname}" does not resolve to an address.`,
        );
      });
  for (const address of addresses) refuseUnlessPublic(url.hostname, address);
  return url;
}

/** Throws when `address` (what `host` resolved to) is not a public one. */
export function refuseUnlessPublic(host: string, address: string): void {
  const range = addressRange(address);
  if (range === 'unicast') return;
  const named = host === address || `[${address}]` === host ? address : `${host} (${address})`;
  throw new WebhookRefusedError(
    `The webhook address ${named} is in a ${describeRange(range)} range; webhooks go to public addresses only (push.allowPrivateNetworks lets an operator allow these).`,
  );
}

function describeRange(range: string): string {
  switch (range) {
    case 'loopback':
      return 'loopback';
    case 'private':
    case 'uniqueLocal':
    case 'carrierGradeNat':
      return 'private';
    case 'linkLocal':
      return 'link-local';
    default:
      return `non-public (${range})`;
  }
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}
