import type { AgentCard } from '@a2a-js/sdk';

/**
 * SEMANTICS §9, the same in every client: the card whose commands a client
 * offers. With a key, and an agent whose card offers the extended card, it is
 * that card (read with the key: exactly this caller's commands); otherwise the
 * public card, which lists what everyone may run.
 */
export function offersCallerCard(publicCard: AgentCard, keyed: boolean): boolean {
  return keyed && publicCard.capabilities?.extendedAgentCard === true;
}

/** The card to offer commands from, after the public card was read (again). */
export async function cardForCaller(
  publicCard: AgentCard,
  keyed: boolean,
  readExtended: () => Promise<AgentCard>,
): Promise<AgentCard> {
  return offersCallerCard(publicCard, keyed) ? readExtended() : publicCard;
}
