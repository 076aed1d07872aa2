/*
 * How the chat keeps up with its agent while a page stays open: the card is
 * read again (conditionally, by its ETag) on a slow timer and whenever the
 * window gets focus, so new commands show; and once the agent cannot be
 * reached, it is tried again with a growing delay until it answers.
 */

/** How often the card is read again while the agent answers. */
export const CARD_REFRESH_MS = 12_000;

/** `?refresh=<seconds>` sets another period (tests, demos). */
export const REFRESH_PARAM = 'refresh';

/** The shortest period `?refresh=` may set. */
const MIN_REFRESH_MS = 250;

/** The card's refresh period for this page: {@link CARD_REFRESH_MS}, or `?refresh=` seconds. */
export function cardRefreshMs(location: Pick<Location, 'search'>): number {
  const given = Number(new URLSearchParams(location.search).get(REFRESH_PARAM));
  return Number.isFinite(given) && given > 0
    ? Math.max(MIN_REFRESH_MS, given * 1000)
    : CARD_REFRESH_MS;
}

/** The first retry after an outage is noticed, then twice as long each time, up to the cap. */
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 8_000;

/** How long to wait before try number `attempt` (0 for the first) to reach an agent that is down. */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempt));
}
