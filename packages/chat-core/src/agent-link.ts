/*
 * How a chat keeps up with its agent, the same in every client: the card is
 * read again on a slow timer (conditionally, by its ETag) so that new commands
 * show, and an agent that cannot be reached is tried again with a growing delay.
 */

/** How often the card is read again while the agent answers. */
export const CARD_REFRESH_MS = 12_000;

/** The first retry after an outage is noticed, then twice as long each time, up to the cap. */
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 8_000;

/** How long to wait before try number `attempt` (0 for the first) to reach an agent that is down. */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempt));
}
