/*
 * The API key for each agent URL, in session storage: a reload keeps it, and
 * it goes when the tab (the browser session) closes. Never local storage, the
 * URL or the page's text.
 */

const PREFIX = 'a2a-web-chat:v1:api-key:';

export function apiKeyStorageKey(agentUrl: string): string {
  return `${PREFIX}${agentUrl}`;
}

/** The key kept for `agentUrl`; undefined when there is none or storage is blocked. */
export function loadApiKey(storage: Storage | undefined, agentUrl: string): string | undefined {
  try {
    return storage?.getItem(apiKeyStorageKey(agentUrl)) || undefined;
  } catch {
    return undefined;
  }
}

/** Keeps `key` for `agentUrl`; no key (or a blank one) forgets it. */
export function saveApiKey(
  storage: Storage | undefined,
  agentUrl: string,
  key: string | undefined,
): void {
  try {
    if (key) storage?.setItem(apiKeyStorageKey(agentUrl), key);
    else storage?.removeItem(apiKeyStorageKey(agentUrl));
  } catch {
    // Blocked storage: the key lives in this page only, and a reload asks again.
  }
}
