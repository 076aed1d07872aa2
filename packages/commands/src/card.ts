import { AgentCard, type AgentExtension } from '@a2a-js/sdk';
import type { CommandRegistry } from './registry.js';
import { COMMANDS_EXTENSION_URI, type CommandsExtensionParams } from './spec.js';

const DESCRIPTION = 'Slash commands that run on the agent instead of reaching the model.';

/** The extension entry for the card: `required: false`, commands in registration order. */
export function commandsExtension(registry: CommandRegistry): AgentExtension {
  const params: CommandsExtensionParams = {
    commands: registry.specs().map((spec) => ({ ...spec })),
  };
  return { uri: COMMANDS_EXTENSION_URI, description: DESCRIPTION, required: false, params };
}

/** A copy of `card` whose commands extension entry is added, or replaced, from the registry. */
export function withCommandsExtension(card: AgentCard, registry: CommandRegistry): AgentCard {
  const capabilities = card.capabilities ?? { extensions: [] };
  const others = (capabilities.extensions ?? []).filter(
    (ext) => ext.uri !== COMMANDS_EXTENSION_URI,
  );
  return {
    ...card,
    capabilities: { ...capabilities, extensions: [...others, commandsExtension(registry)] },
  };
}

export interface CommandsCardOptions {
  /**
   * Adds entries that also follow the registry, such as the command completion
   * extension's (`withCompletionExtension`); it runs on every rebuild.
   */
  extend?: (card: AgentCard) => AgentCard;
}

/**
 * A card that follows the registry: rebuilt when it is next read after a
 * command is registered or removed, so serving it costs the same with 1 or
 * 1,000 commands, and registering 2,000 commands in a row rebuilds it once,
 * not 2,000 times.
 */
export class CommandsCard {
  private built: { card: AgentCard; json: string; etag: string } | undefined;

  constructor(
    private readonly base: AgentCard,
    private readonly registry: CommandRegistry,
    private readonly options: CommandsCardOptions = {},
  ) {
    registry.onChange(() => {
      this.built = undefined;
    });
  }

  private get latest(): { card: AgentCard; json: string; etag: string } {
    if (!this.built) {
      const commands = withCommandsExtension(this.base, this.registry);
      const card = this.options.extend ? this.options.extend(commands) : commands;
      const json = cardToJson(card);
      this.built = { card, json, etag: etagOf(json) };
    }
    return this.built;
  }

  /** The current card. Do not mutate it. */
  get current(): AgentCard {
    return this.latest.card;
  }

  /** The card as JSON, serialised once per change. */
  get json(): string {
    return this.latest.json;
  }

  /** Changes whenever the card does: an ETag for HTTP caching. */
  get etag(): string {
    return this.latest.etag;
  }

  /** For the SDK's `agentCardHandler({ agentCardProvider })`. */
  readonly provider = async (): Promise<AgentCard> => this.current;
}

/**
 * The card's wire JSON. Security schemes are a oneOf: in memory they take the
 * SDK's `{scheme: {$case, value}}` shape, on the wire `{httpAuthSecurityScheme: {...}}`.
 */
export function cardToJson(card: AgentCard): string {
  const security = AgentCard.toJSON({
    securitySchemes: card.securitySchemes,
    securityRequirements: card.securityRequirements,
  } as AgentCard) as Partial<Record<'securitySchemes' | 'securityRequirements', unknown>>;
  return JSON.stringify({
    ...card,
    securitySchemes: security.securitySchemes ?? {},
    securityRequirements: security.securityRequirements ?? [],
  });
}

/** FNV-1a over the card's JSON: the same card gives the same tag on every instance. */
function etagOf(json: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < json.length; i++) {
    hash ^= json.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return `"${(hash >>> 0).toString(16)}-${json.length.toString(16)}"`;
}
