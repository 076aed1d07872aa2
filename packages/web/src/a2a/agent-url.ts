/** The query parameter that points the page at another agent. */
export const AGENT_PARAM = 'agent';

/**
 * The agent this page talks to: `?agent=<url>` when given, else the page's own
 * origin (the harness that serves `/ui`). Trailing slashes are dropped so that
 * one agent has one key in local storage.
 */
export function agentUrlFrom(location: Pick<Location, 'search' | 'origin'>): string {
  const given = new URLSearchParams(location.search).get(AGENT_PARAM)?.trim();
  return normalizeAgentUrl(given || location.origin);
}

/** `http://host:port/path` without a trailing slash; adds `http://` when no scheme is given. */
export function normalizeAgentUrl(raw: string): string {
  let url = raw.trim();
  if (url !== '' && !/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) url = `http://${url}`;
  return url.replace(/\/+$/, '');
}

/** Whether `raw` can be fetched: an http(s) URL. */
export function isAgentUrl(raw: string): boolean {
  try {
    const url = new URL(normalizeAgentUrl(raw));
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * The page's search string for `agentUrl`: the parameter is dropped when the
 * agent is the page's own origin, so the plain `/ui` link stays plain.
 */
export function searchFor(agentUrl: string, location: Pick<Location, 'search' | 'origin'>): string {
  const params = new URLSearchParams(location.search);
  if (normalizeAgentUrl(agentUrl) === normalizeAgentUrl(location.origin))
    params.delete(AGENT_PARAM);
  else params.set(AGENT_PARAM, agentUrl);
  const search = params.toString();
  return search === '' ? '' : `?${search}`;
}
