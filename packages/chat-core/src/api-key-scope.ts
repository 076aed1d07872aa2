import type { AgentCard } from '@a2a-js/sdk';

/*
 * Where an API key may go. A chat holds a key for one agent: it is sent only
 * when that agent's card asks for credentials, and only to the origin the
 * person typed, never to another host a card names. The card itself is public
 * and is read without it. HTTP 401 means the key is missing or wrong.
 */

/** The agent answered HTTP 401: no key was sent (`sentKey` false), or the one sent is wrong. */
export class ApiKeyRefusedError extends Error {
  override readonly name = 'ApiKeyRefusedError';
  constructor(readonly sentKey: boolean) {
    super(sentKey ? 'The agent refused the API key.' : 'This agent needs an API key.');
  }
}

function namesScheme(requirement: { schemes?: Record<string, unknown> }): boolean {
  return Object.keys(requirement.schemes ?? {}).length > 0;
}

/** Whether some way of calling the agent that its card lists takes credentials. */
export function asksForApiKey(card: Pick<AgentCard, 'securityRequirements'>): boolean {
  return (card.securityRequirements ?? []).some(namesScheme);
}

/**
 * Whether every way of calling the agent needs credentials. A requirement
 * that names no scheme lets anyone in, so it makes the key optional.
 */
export function requiresApiKey(card: Pick<AgentCard, 'securityRequirements'>): boolean {
  const requirements = card.securityRequirements ?? [];
  return requirements.length > 0 && requirements.every(namesScheme);
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

function urlOf(input: Parameters<typeof fetch>[0]): string {
  if (typeof input === 'string') return input;
  return input instanceof URL ? input.href : input.url;
}

export interface KeyScope {
  apiKey: string | undefined;
  /** The agent's URL as the person gave it: the key goes to this origin only. */
  agentUrl: string;
  /** The agent's card once read; until then no key is sent. */
  card: () => AgentCard | undefined;
  /** The fetch underneath (the global one by default). */
  send?: typeof fetch;
}

/**
 * `fetch` for one agent's calls: `Authorization: Bearer <key>` on the requests
 * the scope allows, and HTTP 401 turned into {@link ApiKeyRefusedError}, so a
 * chat can tell a refused key from an agent that does not answer.
 */
export function scopedKeyFetch(scope: KeyScope): typeof fetch {
  const send = scope.send ?? ((input, init) => fetch(input, init));
  const agentOrigin = originOf(scope.agentUrl);
  return async (input, init) => {
    const card = scope.card();
    const withKey =
      scope.apiKey !== undefined &&
      card !== undefined &&
      asksForApiKey(card) &&
      agentOrigin !== undefined &&
      originOf(urlOf(input)) === agentOrigin;
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : {}));
    if (withKey) headers.set('authorization', `Bearer ${scope.apiKey}`);
    else headers.delete('authorization');
    const response = await send(input, { ...init, headers });
    if (response.status === 401) {
      // The body only repeats the refusal; let the connection go.
      void response.body?.cancel().catch(() => undefined);
      throw new ApiKeyRefusedError(withKey);
    }
    return response;
  };
}
