import type { AgentCard, Task } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import { readCommands, type CommandSpec } from 'a2a-commands/client';
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

/** Reads the agent card at `url` and builds a client over JSON-RPC or HTTP+JSON. */
export async function connect(url: string): Promise<Connection> {
  const base = normalizeUrl(url);
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory(), new RestTransportFactory()],
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
  return {
    url: base,
    client,
    card,
    agentName: sanitizeLine(card.name || 'agent'),
    commands: readCommands(card),
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
