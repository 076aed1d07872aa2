import type { ArgumentValues } from 'a2a-commands/client/completion';
import { useEffect } from 'react';
import { highlightRuns, valueMatchIndexes } from '../menu/slash-menu.js';
import { optionId } from './SlashMenu.js';

/**
 * The values for the argument being typed (the composer's second listbox,
 * after the command's name): each value with its description; Tab takes the
 * active one. Focus stays in the composer, as with the command menu.
 */
export function ValueMenu({
  id,
  offered,
  active,
  onHover,
  onChoose,
}: {
  id: string;
  offered: ArgumentValues;
  active: number;
  onHover: (index: number) => void;
  onChoose: (index: number) => void;
}) {
  useEffect(() => {
    document.getElementById(optionId(id, active))?.scrollIntoView?.({ block: 'nearest' });
  }, [id, active]);

  return (
    <div className="slash-menu value-menu">
      <ul
        className="slash-list"
        role="listbox"
        id={id}
        aria-label={`Values for ${offered.argument.name}`}
      >
        {offered.values.map((entry, index) => (
          <li
            key={entry.value}
            id={optionId(id, index)}
            role="option"
            aria-selected={index === active}
            className="slash-option"
            onMouseDown={(event) => event.preventDefault()}
            onMouseMove={() => {
              if (index !== active) onHover(index);
            }}
            onClick={() => onChoose(index)}
          >
            <span className="slash-name">
              {highlightRuns(
                entry.value,
                valueMatchIndexes(entry.value, offered.position.value),
              ).map((run, i) => (run.match ? <mark key={i}>{run.text}</mark> : run.text))}
            </span>
            {entry.description !== undefined && (
              <span className="slash-desc">{entry.description}</span>
            )}
          </li>
        ))}
        {offered.hasMore && (
          <li className="value-more" aria-hidden="true">
            More values: type to narrow
          </li>
        )}
      </ul>
      <div className="slash-keys" aria-hidden="true">
        <span>
          <kbd>↑</kbd>
          <kbd>↓</kbd> move
        </span>
        <span>
          <kbd>Tab</kbd> take
        </span>
        <span>
          <kbd>Enter</kbd> send
        </span>
        <span>
          <kbd>Esc</kbd> close
        </span>
      </div>
    </div>
  );
}
