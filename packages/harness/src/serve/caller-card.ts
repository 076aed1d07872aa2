import type { AgentCard } from '@a2a-js/sdk';

/**
 * The card when callers can be told apart (API keys are on) and some command
 * is for some callers only: it offers the authenticated extended card, which
 * lists each caller's own commands (SEMANTICS §9). The public card lists only
 * the commands everyone may run.
 */
export function withExtendedCard(card: AgentCard): AgentCard {
  return {
    ...card,
    capabilities: {
      streaming: card.capabilities?.streaming,
      pushNotifications: card.capabilities?.pushNotifications,
      extensions: card.capabilities?.extensions ?? [],
      ...card.capabilities,
      extendedAgentCard: true,
    },
  };
}
