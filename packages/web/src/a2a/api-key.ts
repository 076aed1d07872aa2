import type { AgentCard } from '@a2a-js/sdk';

/*
 * API keys: the card says whether an agent needs one; every A2A call (not the
 * card) carries it as `Authorization: Bearer <key>`; HTTP 401 means it is
 * missing or wrong. The key itself never appears in an error message.
 */

/** The card asks for a key and none is set: nothing was sent. */
export class ApiKeyNeededError extends Error {
  override readonly name = 'ApiKeyNeededError';
  constructor() {
    super('This agent needs an API key.');
  }
}

/** The agent answered HTTP 401: no key was sent (`sentKey` false), or the one sent is wrong. */
export class ApiKeyRefusedError extends Error {
  override readonly name = 'ApiKeyRefusedError';
  constructor(readonly sentKey: boolean) {
    super(sentKey ? 'The agent refused the API key.' : 'This agent needs an API key.');
  }
}

/**
 * Whether every way of calling the agent the card allows needs credentials. A
 * requirement that names no scheme lets anyone in, so it makes the key optional.
 */
export function requiresApiKey(card: AgentCard): boolean {
  const requirements = card.securityRequirements ?? [];
  return (
    requirements.length > 0 &&
    requirements.every((requirement) => Object.keys(requirement.schemes ?? {}).length > 0)
  );
}

/** What a bearer token may hold (RFC 6750 allows less): printable ASCII, no spaces. */
export function isApiKeyText(key: string): boolean {
  return /^[\x21-\x7e]+$/.test(key);
}

/**
 * `fetch` for one agent's A2A calls: with the key as a bearer token when there
 * is one, and HTTP 401 turned into {@link ApiKeyRefusedError} so the chat can
 * tell a refused key from any other refusal, on either transport.
 */
export function authorizedFetch(
  apiKey: string | undefined,
  send: typeof fetch = (input, init) => fetch(input, init),
): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : {}));
    if (apiKey) headers.set('authorization', `Bearer ${apiKey}`);
    const response = await send(input, { ...init, headers });
    if (response.status === 401) {
      // The body only repeats the refusal; let the connection go.
      void response.body?.cancel().catch(() => undefined);
      throw new ApiKeyRefusedError(apiKey !== undefined);
    }
    return response;
  };
}

/** Hex digits kept of the key's hash: enough to tell a browser's keys apart, too few to stand in for one. */
const FINGERPRINT_HEX = 12;

/**
 * A short one-way name for a key, to keep each key's tasks apart in local
 * storage without storing the key. SHA-256 where the page may use Web Crypto
 * (https, or localhost); elsewhere (plain http on a LAN address) FNV-1a,
 * which only has to keep lists apart.
 */
export async function keyFingerprint(key: string): Promise<string> {
  const bytes = new TextEncoder().encode(key);
  try {
    const subtle = globalThis.crypto?.subtle;
    if (subtle) {
      const digest = new Uint8Array(await subtle.digest('SHA-256', bytes));
      return toHex(digest).slice(0, FINGERPRINT_HEX);
    }
  } catch {
    // A browser that offers Web Crypto and then refuses: the fallback keeps the lists apart.
  }
  return fnv1a(bytes);
}

function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** 32-bit FNV-1a, as 8 hex digits. */
function fnv1a(bytes: Uint8Array): string {
  let hash = 0x811c9dc5;
  for (const byte of bytes) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}
