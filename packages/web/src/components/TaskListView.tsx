import { useState, type CSSProperties } from 'react';
import type { TaskRow } from '../a2a/task-list.js';
import { taskHref } from '../state/task-hash.js';
import { ForkIcon } from './ForkIcon.js';
import { StatePill } from './StatePill.js';

/**
 * The sidebar's tasks: a search box that narrows them by title, each row with
 * a Hide button, and the hidden ones one click away (each with Unhide).
 */
export function TaskListView({
  rows,
  currentId,
  hidden,
  onHide,
  onOpen,
}: {
  rows: readonly TaskRow[];
  currentId?: string;
  hidden: ReadonlySet<string>;
  onHide: (id: string, hide: boolean) => void;
  /** A task link was followed (the drawer closes). */
  onOpen: () => void;
}) {
  const [query, setQuery] = useState('');
  const [showHidden, setShowHidden] = useState(false);
  const words = query.trim().toLowerCase();
  const matching = rows.filter((row) => words === '' || row.title.toLowerCase().includes(words));
  const shown = matching.filter((row) => !hidden.has(row.id));
  const hiddenRows = rows.filter((row) => hidden.has(row.id));

  return (
    <>
      <input
        type="search"
        className="task-search"
        placeholder="Search tasks"
        aria-label="Search tasks"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      {shown.length === 0 && words !== '' && <p className="task-empty">No task matches.</p>}
      <ul className="task-list">
        {shown.map((row) => (
          <li
            key={row.id}
            className="task-row"
            style={{ '--depth': words === '' ? Math.min(row.depth, 3) : 0 } as CSSProperties}
          >
            <TaskLink row={row} current={row.id === currentId} onOpen={onOpen} />
            <button
              type="button"
              className="task-hide"
              aria-label={`Hide "${row.title}"`}
              title="Hide from this list"
              onClick={() => onHide(row.id, true)}
            >
              <span aria-hidden="true">×</span>
            </button>
          </li>
        ))}
      </ul>
      {hiddenRows.length > 0 && (
        <button
          type="button"
          className="task-show-hidden"
          aria-expanded={showHidden}
          onClick={() => setShowHidden((value) => !value)}
        >
          {showHidden ? 'Close the hidden tasks' : `Show ${hiddenRows.length} hidden`}
        </button>
      )}
      {showHidden && hiddenRows.length > 0 && (
        <ul className="task-list task-list--hidden" aria-label="Hidden tasks">
          {hiddenRows.map((row) => (
            <li key={row.id} className="task-row">
              <TaskLink row={row} current={row.id === currentId} onOpen={onOpen} />
              <button
                type="button"
                className="task-hide"
                aria-label={`Unhide "${row.title}"`}
                onClick={() => onHide(row.id, false)}
              >
                <span aria-hidden="true">↺</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function TaskLink({
  row,
  current,
  onOpen,
}: {
  row: TaskRow;
  current: boolean;
  onOpen: () => void;
}) {
  return (
    <a
      className={`task-link${row.depth > 0 ? ' is-subtask' : ''}${row.fork ? ' is-fork' : ''}`}
      href={taskHref(row.id)}
      aria-current={current ? 'page' : undefined}
      onClick={onOpen}
    >
      {row.depth > 0 &&
        (row.fork ? (
          <span className="task-branch task-branch--fork">
            <ForkIcon />
            <span className="sr-only">Fork: </span>
          </span>
        ) : (
          <span className="task-branch" aria-hidden="true">
            ↳
          </span>
        ))}
      <span className="task-title">{row.title}</span>
      {row.state !== undefined && <StatePill state={row.state} className="task-state" />}
    </a>
  );
}
