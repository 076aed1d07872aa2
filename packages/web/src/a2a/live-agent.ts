/*
 * How the chat keeps up with its agent while a page stays open: the card is
 * read again (conditionally, by its ETag) on a slow timer and whenever the
 * window gets focus, so new commands show; and once the agent cannot be
 * reached, it is tried again with a growing delay until it answers.
 */

import { CARD_REFRESH_MS } from 'a2a-chat-core';

export { CARD_REFRESH_MS, reconnectDelayMs } from 'a2a-chat-core';

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
