import type { TaskState } from '@a2a-js/sdk';
import { taskHref } from '../state/task-hash.js';
import { StatePill } from './StatePill.js';

/** How the page stands with its agent, when not simply connected. */
export type ConnectionState = 'connecting' | 'reconnecting' | 'not-connected';

const CONNECTION_WORDS: Record<ConnectionState, string> = {
  connecting: 'Connecting…',
  reconnecting: 'Reconnecting…',
  'not-connected': 'Not connected',
};

/**
 * The open task's title and state; for a sub-task, the way back to its parent.
 * While the agent is not connected, that takes the state's place: the header
 * is where people look, on a phone as on a desktop (the drawer may be closed).
 */
export function ChatHeader({
  title,
  state,
  taskId,
  parent,
  sidebarId,
  menuButtonId,
  sidebarOpen,
  onMenu,
  connection,
  model,
  onRename,
}: {
  /** The task's model, when known. */
  model?: string;
  /** Starts `/title ` in the message box. */
  onRename?: () => void;
  /** Undefined while connected. */
  connection?: ConnectionState;
  menuButtonId?: string;
  title: string;
  state?: TaskState;
  taskId?: string;
  /** The task this one came from: its parent, or the task it was forked from. */
  parent?: { id: string; title: string; fork?: boolean };
  sidebarId: string;
  sidebarOpen: boolean;
  onMenu: () => void;
}) {
  return (
    <header className="chat-head">
      <button
        type="button"
        id={menuButtonId}
        className="icon-button menu-button"
        aria-label="Show the task list"
        aria-expanded={sidebarOpen}
        aria-controls={sidebarId}
        onClick={onMenu}
      >
        <svg viewBox="0 0 20 20" width="20" height="20" aria-hidden="true">
          <path
            d="M3.5 5.5h13M3.5 10h13M3.5 14.5h13"
            stroke="currentColor"
            strokeWidth="1.75"
            strokeLinecap="round"
          />
        </svg>
      </button>
      <div className="chat-titles">
        {parent && (
          <a className="back-link" href={taskHref(parent.id)}>
            <span aria-hidden="true">←</span> {parent.fork ? 'Forked from' : 'Back to parent task'}
            <span className="back-title">{parent.title}</span>
          </a>
        )}
        <div className="chat-title-row">
          <h1 className="chat-title" title={taskId ? `Task ${taskId}` : undefined}>
            {title}
          </h1>
          {onRename && (
            <button type="button" className="msg-action chat-rename" onClick={onRename}>
              Rename
            </button>
          )}
        </div>
        {model && (
          <p className="chat-model">
            <span className="sr-only">Model: </span>
            {model}
          </p>
        )}
      </div>
      {connection ? (
        <span className={`connection-state connection-state--${connection}`} role="status">
          <span className="state-dot" aria-hidden="true" />
          {CONNECTION_WORDS[connection]}
        </span>
      ) : (
        state !== undefined && <StatePill state={state} className="chat-state" />
      )}
    </header>
  );
}
