import type { AgentCard } from '@a2a-js/sdk';
import type { CommandSpec } from 'a2a-commands/client';

/** Commands worth a button on an empty chat, when the agent offers them. */
const STARTERS = ['help', 'model', 'status'];

/** A new chat: who the agent is, and a first step. */
export function EmptyState({
  card,
  commands,
  onCommand,
  noCardTitle = 'Connecting…',
}: {
  card?: AgentCard;
  commands: readonly CommandSpec[];
  onCommand: (text: string) => void;
  /** The heading until there is a card. */
  noCardTitle?: string;
}) {
  const starters = commands.filter((command) => STARTERS.includes(command.name));
  return (
    <div className="empty">
      <div className="empty-mark" aria-hidden="true">
        /
      </div>
      <h2 className="empty-title">{card ? card.name : noCardTitle}</h2>
      {card?.description && <p className="empty-text">{card.description}</p>}
      {commands.length > 0 && (
        <p className="empty-hint">
          Type <kbd>/</kbd> to see the {commands.length} commands this agent offers.
        </p>
      )}
      {starters.length > 0 && (
        <div className="starters">
          {starters.map((command) => (
            <button
              key={command.name}
              type="button"
              className="starter"
              onClick={() => onCommand(`/${command.name}`)}
            >
              <span className="starter-name">/{command.name}</span>
              <span className="starter-desc">{command.description}</span>
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
