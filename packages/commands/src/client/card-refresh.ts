import {
  A2A_PROTOCOL_VERSION,
  A2A_VERSION_HEADER,
  AGENT_CARD_PATH,
  type AgentCard,
} from '@a2a-js/sdk';
import { AgentCardResolver } from '@a2a-js/sdk/client';

/** What a conditional re-read of the card found. */
export type CardRefresh =
  | { changed: false }
  | {
      changed: true;
      card: AgentCard;
      /** The new card's ETag, for the next re-read; undefined when the agent sends none. */
      etag: string | undefined;
    };

export interface CardRefreshOptions {
  /** The ETag of the card the client holds; without it the card is always read whole. */
  etag?: string;
  fetch?: typeof fetch;
  signal?: AbortSignal;
}

/**
 * Reads the agent card at `baseUrl` again, as the SDK's resolver does (the
 * well-known path, `A2A-Version: 1.0`), but conditionally: with the card's
 * ETag in `If-None-Match`, an unchanged card costs a `304` and no body. A
 * client that holds the commands of an open chat calls this on a slow timer
 * and on focus, so commands added or removed on the agent show without a
 * reload. Fails as the resolver does: a network error as is, and any status
 * other than 200 and 304 as an Error naming the URL and the status.
 */
export async function refreshCard(
  baseUrl: string,
  options: CardRefreshOptions = {},
): Promise<CardRefresh> {
  const url = new URL(AGENT_CARD_PATH, baseUrl);
  const headers: Record<string, string> = { [A2A_VERSION_HEADER]: A2A_PROTOCOL_VERSION };
  if (options.etag) headers['If-None-Match'] = options.etag;
  const response = await (options.fetch ?? fetch)(url, { headers, signal: options.signal });
  if (response.status === 304) return { changed: false };
  if (!response.ok) {
    throw new Error(`Failed to fetch Agent Card from ${url.href}: ${response.status}`);
  }
  const raw: unknown = await response.json();
  const card = AgentCardResolver.default.normalizeAgentCard(raw);
  return { changed: true, card, etag: response.headers.get('etag') ?? undefined };
}
