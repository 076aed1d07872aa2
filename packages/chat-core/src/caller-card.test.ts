import type { AgentCard } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { cardForCaller } from './caller-card.js';

const card = (name: string, extendedAgentCard: boolean) =>
  ({ name, capabilities: { extendedAgentCard } }) as unknown as AgentCard;

describe('cardForCaller (SEMANTICS §9)', () => {
  const extended = async () => card('extended', true);

  it('with a key and an agent that offers it: the extended card', async () => {
    expect((await cardForCaller(card('public', true), true, extended)).name).toBe('extended');
  });

  it('without a key, or from an agent without one: the public card, nothing asked', async () => {
    const never = async (): Promise<AgentCard> => {
      throw new Error('must not be read');
    };
    expect((await cardForCaller(card('public', true), false, never)).name).toBe('public');
    expect((await cardForCaller(card('public', false), true, never)).name).toBe('public');
  });
});
