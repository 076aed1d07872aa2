import type { Completion } from 'a2a-commands/client';
import { useEffect } from 'react';
import { highlightRuns } from '../menu/slash-menu.js';

export function optionId(listboxId: string, index: number): string {
  return `${listboxId}-option-${index}`;
}

/**
 * The listbox of the composer's combobox (WAI-ARIA APG combobox pattern).
 * Focus stays in the composer: it points at the active option with
 * `aria-activedescendant`. Options take the mouse too: hover moves the active
 * entry, a click chooses it (mousedown is cancelled so the composer keeps focus).
 */
export function SlashMenu({
  id,
  entries,
  active,
  onHover,
  onChoose,
}: {
  id: string;
  entries: readonly Completion[];
  active: number;
  onHover: (index: number) => void;
  onChoose: (index: number) => void;
}) {
  useEffect(() => {
    document.getElementById(optionId(id, active))?.scrollIntoView?.({ block: 'nearest' });
  }, [id, active]);

  return (
    <div className="slash-menu">
      <ul className="slash-list" role="listbox" id={id} aria-label="Commands">
        {entries.map((entry, index) => {
          const { name, description, argument_hint: hint } = entry.command;
          return (
            <li
              key={name}
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
                /
                {highlightRuns(name, entry.indexes).map((run, i) =>
                  run.match ? <mark key={i}>{run.text}</mark> : run.text,
                )}
              </span>
              {hint !== '' && <span className="slash-hint">{hint}</span>}
              <span className="slash-desc">{description}</span>
            </li>
          );
        })}
      </ul>
      <div className="slash-keys" aria-hidden="true">
        <span>
          <kbd>↑</kbd>
          <kbd>↓</kbd> move
        </span>
        <span>
          <kbd>Enter</kbd> insert
        </span>
        <span>
          <kbd>Esc</kbd> close
        </span>
      </div>
    </div>
  );
}
