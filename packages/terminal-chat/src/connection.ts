import type { AgentCard, Task } from '@a2a-js/sdk';
import {
  ApiKeyRefusedError,
  asksForApiKey,
  offersCallerCard,
  requiresApiKey,
  scopedKeyFetch,
} from 'a2a-chat-core';
import {
  AgentCardResolver,
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
  /**
   * Reads the caller's extended card again, with the key (SEMANTICS §9): set
   * when the commands shown are this caller's own, so a refresh keeps them.
   */
  callerCard?: () => Promise<AgentCard>;
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
  /**
   * Sent as `Authorization: Bearer <key>` when the card asks for credentials,
   * on calls to the agent's own origin only (never with the card's read).
   */
  apiKey?: string;
}

/** Reads the agent card at `url` and builds a client over JSON-RPC or HTTP+JSON. */
export async function connect(url: string, options: ConnectOptions = {}): Promise<Connection> {
  const base = normalizeUrl(url);
  let read: AgentCard | undefined;
  const fetchImpl = scopedKeyFetch({ apiKey: options.apiKey, agentUrl: base, card: () => read });
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [
        new JsonRpcTransportFactory({ fetchImpl }),
        new RestTransportFactory({ fetchImpl }),
      ],
      cardResolver: {
        async resolve(baseUrl, path) {
          read = await AgentCardResolver.default.resolve(baseUrl, path);
          if (!options.apiKey && requiresApiKey(read)) throw new ApiKeyNeededError();
          return read;
        },
      },
    }),
  );
  let client: Client;
  let card: AgentCard;
  let keyed = false;
  try {
    client = await factory.createFromUrl(base);
    keyed = options.apiKey !== undefined && options.apiKey !== '' && asksForApiKey(read!);
    // With an extended card, the SDK's client reads it: this caller's own commands.
    card = await client.getAgentCard();
    if (options.apiKey && asksForApiKey(card)) await checkKey(client);
  } catch (error) {
    if (error instanceof ApiKeyNeededError) {
      throw new ChatError(
        `The agent at ${base} needs an API key: pass --api-key <key> or set A2A_API_KEY.`,
      );
    }
    if (error instanceof ApiKeyRefusedError) {
      throw new ChatError(`The agent at ${base} refused the API key.`);
    }
    throw new ChatError(`Cannot reach an A2A agent at ${base}: ${describeError(error)}`);
  }
  return {
    url: base,
    client,
    card,
    agentName: sanitizeLine(card.name || 'agent'),
    commands: readCommands(card),
    completion: readCompletion(card),
    fetch: fetchImpl,
    ...(offersCallerCard(read ?? card, keyed) && { callerCard: () => client.getAgentCard() }),
  };
}

/** The card asks for a key and none was given: nothing was sent. */
class ApiKeyNeededError extends Error {}

/**
 * One cheap call with the key, so that a wrong key is reported now and not as
 * the first message's failure: GetTask of an id no agent has. Any answer but
 * HTTP 401 (task not found, most likely) means the key was taken.
 */
async function checkKey(client: Client): Promise<void> {
  try {
    await client.getTask({ tenant: '', id: crypto.randomUUID(), historyLength: 0 });
  } catch (error) {
    if (error instanceof ApiKeyRefusedError) throw error;
  }
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
