import type { ReactNode } from 'react';
import type { Problem } from '../a2a/errors.js';
import type { TaskRow } from '../a2a/task-list.js';
import type { AgentStatus } from '../state/use-agent.js';
import { TaskListView } from './TaskListView.js';

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
  hidden,
  onHide,
}: {
  /** Tasks hidden from the list (this browser's tidying). */
  hidden: ReadonlySet<string>;
  onHide: (id: string, hide: boolean) => void;
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
          <TaskListView
            rows={rows}
            currentId={currentId}
            hidden={hidden}
            onHide={onHide}
            onOpen={onClose}
          />
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
