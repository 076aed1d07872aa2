import type { AgentCard } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import {
  asksForApiKey,
  cardForCaller,
  offersCallerCard,
  requiresApiKey,
  scopedKeyFetch,
} from 'a2a-chat-core';
import { readCommands, refreshCard, type CommandSpec } from 'a2a-commands/client';
import { ApiKeyNeededError } from './errors.js';

/** The A2A agent the bridge fronts: the SDK's client, and the card it was made from. */
export interface A2AAgent {
  /** The URL the user named, without a trailing slash. */
  url: string;
  client: Client;
  card: AgentCard;
  /** The first read's ETag, for conditional re-reads. */
  etag: string | undefined;
  /** Whether calls carry the key (the card asks for one and there is one). */
  keyed: boolean;
}

/** `127.0.0.1:8080` and `http://host/` both work: the scheme is added and trailing slashes go. */
export function agentBaseUrl(url: string): string {
  const trimmed = url.trim().replace(/\/+$/, '');
  const full = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
  return new URL(full).href.replace(/\/+$/, '');
}

/**
 * Reads the agent's card (public: no key) and makes a client over JSON-RPC or
 * HTTP+JSON from it. The key goes only to an agent whose card asks for one,
 * and only to the origin of `url`; a card that requires one and no key fails
 * here with {@link ApiKeyNeededError}, before any call. An agent with an
 * extended card is asked for it with the key, which also tries the key.
 */
export async function connectAgent(url: string, apiKey?: string): Promise<A2AAgent> {
  const base = agentBaseUrl(url);
  const read = await refreshCard(base);
  if (!read.changed) throw new Error(`The agent at ${base} answered 304 to a first read.`);
  let card = read.card;
  if (requiresApiKey(card) && !apiKey) throw new ApiKeyNeededError(base);
  const keyed = asksForApiKey(card) && apiKey !== undefined && apiKey !== '';
  const fetchImpl = scopedKeyFetch({ apiKey, agentUrl: base, card: () => card });
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [
        new JsonRpcTransportFactory({ fetchImpl }),
        new RestTransportFactory({ fetchImpl }),
      ],
    }),
  );
  const client = await factory.createFromAgentCard(card);
  if (offersCallerCard(card, keyed)) card = await client.getAgentCard();
  return { url: base, client, card, etag: read.etag, keyed };
}

/**
 * A card read again (conditionally, by a2a-chat-core's CardWatch): the new
 * command list when it changed, else undefined. With a key and an extended
 * card, the commands are read again from that card: the caller's own (SEMANTICS §9).
 */
export async function adoptCard(
  agent: A2AAgent,
  publicCard: AgentCard,
): Promise<CommandSpec[] | undefined> {
  const card = await cardForCaller(publicCard, agent.keyed, () => agent.client.getAgentCard());
  const before = JSON.stringify(readCommands(agent.card));
  agent.card = card;
  const commands = readCommands(card);
  return JSON.stringify(commands) === before ? undefined : commands;
}
