import { AgentCard, type AgentExtension } from '@a2a-js/sdk';
import type { CommandView } from './caller-commands.js';
import type { Caller } from './command.js';
import { CommandRegistry } from './registry.js';
import { COMMANDS_EXTENSION_URI, type CommandsExtensionParams } from './spec.js';

const DESCRIPTION = 'Slash commands that run on the agent instead of reaching the model.';

/** A registry means its public commands (SEMANTICS §9); a view, its caller's. */
export function commandsIn(source: CommandRegistry | CommandView): CommandView {
  return source instanceof CommandRegistry ? source.forCaller() : source;
}

/**
 * The extension entry for the card: `required: false`, commands in
 * registration order. Given the registry, only the commands everyone may run.
 */
export function commandsExtension(source: CommandRegistry | CommandView): AgentExtension {
  const params: CommandsExtensionParams = {
    commands: commandsIn(source)
      .specs()
      .map((spec) => ({ ...spec })),
  };
  return { uri: COMMANDS_EXTENSION_URI, description: DESCRIPTION, required: false, params };
}

/** A copy of `card` whose commands extension entry is added, or replaced, from the registry (or one caller's view). */
export function withCommandsExtension(
  card: AgentCard,
  registry: CommandRegistry | CommandView,
): AgentCard {
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
   * extension's (`withCompletionExtension`); it runs on every rebuild, before
   * signing. `commands` are the ones this card lists: build from them, not from
   * the whole registry, or a caller learns of commands that are not theirs.
   */
  extend?: (card: AgentCard, commands: CommandView) => AgentCard;
  /**
   * Signs each version of the card (the SDK's `generateAgentCardSignature(...)`).
   * The card is served only once signed; until a new version is signed, the last
   * signed one is. A failed signature goes to `onError` and keeps the last one.
   */
  sign?: (card: AgentCard) => Promise<AgentCard>;
  onError?: (error: unknown, where: string) => void;
}

interface BuiltCard {
  card: AgentCard;
  json: string;
  etag: string;
}

/**
 * A card that follows the registry: built only when it is read after a command
 * was registered or removed (2,000 command files registered at once cost one
 * build), so serving it costs the same with 1 or 1,000 commands. With a signer,
 * each change is signed once the changes of the moment have all arrived.
 */
export class CommandsCard {
  private built: BuiltCard | undefined;
  private version = 0;
  private signing: Promise<void> = Promise.resolve();
  private signPending = false;

  constructor(
    private readonly base: AgentCard,
    private readonly registry: CommandRegistry,
    private readonly options: CommandsCardOptions = {},
  ) {
    if (options.sign) this.built = built(this.build());
    registry.onChange(() => this.changed());
    this.changed();
  }

  private build(commands: CommandView = this.registry.forCaller()): AgentCard {
    const card = withCommandsExtension(this.base, commands);
    return this.options.extend ? this.options.extend(card, commands) : card;
  }

  /**
   * SEMANTICS §9: the card as `caller` sees it, listing exactly the commands
   * they may run; for `GetExtendedAgentCard`. Built on each call (it depends on
   * who asks), and signed when there is a signer.
   */
  async forCaller(caller: Caller): Promise<AgentCard> {
    const card = this.build(this.registry.forCaller(caller));
    return this.options.sign ? this.options.sign(card) : card;
  }

  private changed(): void {
    const { sign, onError } = this.options;
    if (!sign) {
      this.built = undefined;
      return;
    }
    this.version++;
    if (this.signPending) return;
    this.signPending = true;
    this.signing = Promise.resolve().then(async () => {
      this.signPending = false;
      // Only the newest version is kept: a slow signature of an older one is dropped.
      const version = this.version;
      try {
        const signed = await sign(this.build());
        if (version === this.version) this.built = built(signed);
      } catch (error) {
        onError?.(error, 'card signature');
      }
    });
  }

  private get latest(): BuiltCard {
    this.built ??= built(this.build());
    return this.built;
  }

  /** Resolves once the current version is signed; at once without a signer. */
  settled(): Promise<void> {
    return this.signing;
  }

  /** The current card. Do not mutate it. With a signer, await `settled()` first. */
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

  /** For the SDK's `agentCardHandler({ agentCardProvider })`: the card once settled. */
  readonly provider = async (): Promise<AgentCard> => {
    await this.settled();
    return this.latest.card;
  };
}

function built(card: AgentCard): BuiltCard {
  const json = cardToJson(card);
  return { card, json, etag: etagOf(json) };
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
