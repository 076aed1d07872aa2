/*
 * API keys in the page: where a key goes is chat-core's rule (`scopedKeyFetch`);
 * here, what the page adds: the error for a key that is needed and not set,
 * what a key may hold, and a one-way name to keep each key's tasks apart.
 * The key itself never appears in an error message.
 */

/** The card asks for a key and none is set: nothing was sent. */
export class ApiKeyNeededError extends Error {
  override readonly name = 'ApiKeyNeededError';
  constructor() {
    super('This agent needs an API key.');
  }
}

/** What a bearer token may hold (RFC 6750 allows less): printable ASCII, no spaces. */
export function isApiKeyText(key: string): boolean {
  return /^[\x21-\x7e]+$/.test(key);
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
