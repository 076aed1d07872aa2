import type { AgentCard } from '@a2a-js/sdk';

/*
 * Where an agent's API key may go. The card is public and read without it;
 * the key is sent only when the card asks for one, and then only to the
 * origin of the URL the user named: a card may list interfaces anywhere, and
 * a key must not follow it to another host. Browser-safe.
 */

/**
 * Whether every way of calling the agent the card allows needs credentials. A
 * requirement that names no scheme lets anyone in, so it makes the key optional.
 */
export function requiresApiKey(card: Pick<AgentCard, 'securityRequirements'>): boolean {
  const requirements = card.securityRequirements ?? [];
  return (
    requirements.length > 0 &&
    requirements.every((requirement) => Object.keys(requirement.schemes ?? {}).length > 0)
  );
}

/** Whether any requirement of the card names a scheme: a key is wanted, if not always needed. */
export function asksForApiKey(card: Pick<AgentCard, 'securityRequirements'>): boolean {
  return (card.securityRequirements ?? []).some(
    (requirement) => Object.keys(requirement.schemes ?? {}).length > 0,
  );
}

/** The agent answered HTTP 401: no key was sent (`sentKey` false), or the one sent is wrong. */
export class ApiKeyRefusedError extends Error {
  override readonly name = 'ApiKeyRefusedError';
  constructor(readonly sentKey: boolean) {
    super(sentKey ? 'The agent refused the API key.' : 'This agent needs an API key.');
  }
}

export interface AgentKeyFetchOptions {
  /** The key; undefined sends none. */
  apiKey: string | undefined;
  /** The URL the user named for the agent: only its origin gets the key. */
  agentUrl: string;
  send?: typeof fetch;
}

function urlOf(input: Parameters<typeof fetch>[0]): URL | undefined {
  try {
    if (input instanceof URL) return input;
    if (typeof input === 'string') return new URL(input);
    return new URL(input.url);
  } catch {
    return undefined;
  }
}

/**
 * `fetch` for one agent's A2A calls: `Authorization: Bearer <key>` on requests
 * to the agent's own origin, never elsewhere, and HTTP 401 turned into
 * {@link ApiKeyRefusedError} so a client can tell a refused key from any other
 * refusal, on either transport. The key never appears in an error.
 */
export function agentKeyFetch({
  apiKey,
  agentUrl,
  send = (input, init) => fetch(input, init),
}: AgentKeyFetchOptions): typeof fetch {
  const origin = new URL(agentUrl).origin;
  return async (input, init) => {
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : {}));
    const keyed = apiKey !== undefined && apiKey !== '' && urlOf(input)?.origin === origin;
    if (keyed) headers.set('authorization', `Bearer ${apiKey}`);
    const response = await send(input, { ...init, headers });
    if (response.status === 401) {
      // The body only repeats the refusal; let the connection go.
      void response.body?.cancel().catch(() => undefined);
      throw new ApiKeyRefusedError(keyed);
    }
    return response;
  };
}
