import type { CSSProperties, ReactNode } from 'react';
import type { Problem } from '../a2a/errors.js';
import type { TaskRow } from '../a2a/task-list.js';
import type { AgentStatus } from '../state/use-agent.js';
import { taskHref } from '../state/task-hash.js';
import { StatePill } from './StatePill.js';

/** The agent's address as a name, until its card gives one. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * This browser's tasks and the other tasks of their contexts (sub-tasks
 * indented under the task that spawned them), "New chat", and the agent form
 * (its URL and API key).
 */
export function Sidebar({
  id,
  rows,
  currentId,
  problem,
  status,
  agentUrl,
  agentForm,
  open,
  onNewChat,
  onClose,
}: {
  id: string;
  rows: readonly TaskRow[];
  currentId?: string;
  problem?: Problem;
  status: AgentStatus;
  /** Names the agent until its card does. */
  agentUrl: string;
  /** The `AgentForm`, at the bottom. */
  agentForm: ReactNode;
  /** On a phone the sidebar is a drawer: whether it is shown. */
  open: boolean;
  onNewChat: () => void;
  onClose: () => void;
}) {
  return (
    <aside id={id} className={`sidebar${open ? ' is-open' : ''}`} aria-label="Chats">
      <div className="sidebar-top">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            /
          </span>
          <span className="brand-name">
            {status.kind === 'ready' ? status.session.card.name : hostOf(agentUrl)}
          </span>
          <button
            type="button"
            className="icon-button sidebar-close"
            aria-label="Close the task list"
            onClick={onClose}
          >
            <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
              <path
                d="m5 5 10 10M15 5 5 15"
                stroke="currentColor"
                strokeWidth="1.75"
                strokeLinecap="round"
              />
            </svg>
          </button>
        </div>
        <button
          type="button"
          className="button button--primary new-chat"
          onClick={onNewChat}
          disabled={status.kind !== 'ready'}
        >
          <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
            <path
              d="M10 4v12M4 10h12"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
            />
          </svg>
          New chat
        </button>
      </div>
      <nav className="task-nav" aria-labelledby={`${id}-heading`}>
        <h2 id={`${id}-heading`} className="sidebar-heading">
          Tasks
        </h2>
        {rows.length === 0 ? (
          <p className="task-empty">Chats you start in this browser show up here.</p>
        ) : (
          <ul className="task-list">
            {rows.map((row) => (
              <li key={row.id} style={{ '--depth': Math.min(row.depth, 3) } as CSSProperties}>
                <a
                  className={`task-link${row.depth > 0 ? ' is-subtask' : ''}${row.fork ? ' is-fork' : ''}`}
                  href={taskHref(row.id)}
                  aria-current={row.id === currentId ? 'page' : undefined}
                  onClick={onClose}
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
                  {row.state !== undefined && (
                    <StatePill state={row.state} className="task-state" />
                  )}
                </a>
              </li>
            ))}
          </ul>
        )}
        {problem && (
          <p className="task-problem" role="status">
            {problem.title}: {problem.detail}
          </p>
        )}
      </nav>
      <div className="sidebar-bottom">{agentForm}</div>
    </aside>
  );
}

/** Two lines parting from one: a fork goes its own way. */
export function ForkIcon() {
  return (
    <svg viewBox="0 0 16 16" width="13" height="13" aria-hidden="true">
      <path
        d="M5 2.5v4.5c0 1.7 1.3 3 3 3h0c1.7 0 3-1.3 3-3V2.5M8 10v3.5"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.6"
        strokeLinecap="round"
      />
    </svg>
  );
}
