import type { AgentCard, Task } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import { readCommands, type CommandSpec } from 'a2a-commands/client';
import { readCompletion, type CommandCompletionParams } from 'a2a-commands/client/completion';
import { describeError, isTaskNotFound } from './errors.js';
import { sanitizeLine } from './sanitize.js';

/** Where `chat` and `send` look when no URL is given: `npm start`'s address. */
export const DEFAULT_AGENT_URL = 'http://127.0.0.1:8080';

/** A connected agent: the SDK client, its card, and what the chat needs from the card. */
export interface Connection {
  url: string;
  client: Client;
  card: AgentCard;
  /** The card's name, safe to draw. */
  agentName: string;
  /** The card's commands; `[]` for an agent without the commands extension. */
  commands: readonly CommandSpec[];
  /** The command completion extension's params; undefined when the agent does not offer it. */
  completion?: CommandCompletionParams;
  /** How to reach the completion route: with the key, like every A2A call. */
  fetch?: typeof fetch;
}

/** A failure a person can act on; the CLI prints its message and exits non-zero. */
export class ChatError extends Error {
  override readonly name = 'ChatError';
}

/** `127.0.0.1:8080` and `http://host/` both work: the scheme is added and trailing slashes go. */
export function normalizeUrl(url: string): string {
  const trimmed = url.trim().replace(/\/+$/, '');
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
}

export interface ConnectOptions {
  /** Sent as `Authorization: Bearer <key>` on every call but the card's. */
  apiKey?: string;
}

/** `fetch` with the agent's API key on every request. */
export function bearerFetch(apiKey: string): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${apiKey}`);
    return fetch(input, { ...init, headers });
  };
}

/** Whether the card asks callers to authenticate. */
export function requiresAuthentication(card: AgentCard): boolean {
  return (card.securityRequirements ?? []).length > 0;
}

/** Reads the agent card at `url` and builds a client over JSON-RPC or HTTP+JSON. */
export async function connect(url: string, options: ConnectOptions = {}): Promise<Connection> {
  const base = normalizeUrl(url);
  const fetchImpl = options.apiKey ? bearerFetch(options.apiKey) : undefined;
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [
        new JsonRpcTransportFactory({ fetchImpl }),
        new RestTransportFactory({ fetchImpl }),
      ],
    }),
  );
  let client: Client;
  let card: AgentCard;
  try {
    client = await factory.createFromUrl(base);
    card = await client.getAgentCard();
  } catch (error) {
    throw new ChatError(`Cannot reach an A2A agent at ${base}: ${describeError(error)}`);
  }
  if (!options.apiKey && requiresAuthentication(card)) {
    throw new ChatError(
      `The agent at ${base} needs an API key: pass --api-key <key> or set A2A_API_KEY.`,
    );
  }
  return {
    url: base,
    client,
    card,
    agentName: sanitizeLine(card.name || 'agent'),
    commands: readCommands(card),
    completion: readCompletion(card),
    fetch: fetchImpl,
  };
}

/** The task to resume, in full; a clear error when the agent does not have it. */
export async function loadTask(connection: Connection, id: string): Promise<Task> {
  try {
    return await connection.client.getTask({ tenant: '', id, historyLength: undefined });
  } catch (error) {
    if (isTaskNotFound(error)) {
      throw new ChatError(`Task ${sanitizeLine(id)} was not found at ${connection.url}.`);
    }
    throw new ChatError(`Could not read task ${sanitizeLine(id)}: ${describeError(error)}`);
  }
}
