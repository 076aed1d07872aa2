import { shortTaskId, taskTree } from 'a2a-chat-core';
import type { CSSProperties } from 'react';
import type { ReplyEntry } from '../a2a/transcript.js';
import { taskHref } from '../state/task-hash.js';
import { ForkIcon } from './ForkIcon.js';
import { ModelPicker } from './ModelPicker.js';
import { HelpTable } from './HelpTable.js';
import { asCommandList, asModelData, asTaskList, isErrorReply, summaryOf } from './reply-view.js';
import { StatePill } from './StatePill.js';

/**
 * A command reply (SEMANTICS §3): a compact card tagged `/name`, apart from the
 * model's bubbles. `/model` gets a picker, `/tasks` links, and a reply that
 * created a sub-task (`task_ref`) a link that opens it here.
 */
export function ReplyCard({
  entry,
  onCommand,
  disabled = false,
  latestModel = true,
}: {
  entry: ReplyEntry;
  /**
   * For `/model`: this is the newest `/model` card, so its `current` is the
   * task's model now. An older card lists the same models but checks none:
   * its text says what the model was then.
   */
  latestModel?: boolean;
  /** Sends a command, as the picker does: `/model <id>`. */
  onCommand: (text: string) => Promise<unknown>;
  disabled?: boolean;
}) {
  const error = isErrorReply(entry.data);
  return (
    <article
      className={`reply${error ? ' reply--error' : ''}`}
      aria-label={`/${entry.command} reply`}
      data-command={entry.command}
    >
      <header className="reply-head">
        <span className="reply-tag">/{entry.command}</span>
        {error && <span className="reply-flag">needs attention</span>}
      </header>
      <ReplyBody
        entry={entry}
        onCommand={onCommand}
        disabled={disabled}
        latestModel={latestModel}
      />
      {entry.taskRef && (
        <a className="reply-link" href={taskHref(entry.taskRef)}>
          {/* A fork goes on independently: it is not a sub-task of this one. */}
          {entry.command === 'fork' ? 'Open fork' : 'Open sub-task'}{' '}
          <span aria-hidden="true">→</span>
          <span className="reply-link-id">{shortTaskId(entry.taskRef)}</span>
        </a>
      )}
    </article>
  );
}

function ReplyBody({
  entry,
  onCommand,
  disabled,
  latestModel,
}: {
  entry: ReplyEntry;
  onCommand: (text: string) => Promise<unknown>;
  disabled: boolean;
  latestModel: boolean;
}) {
  const models = entry.command === 'model' ? asModelData(entry.data) : undefined;
  if (models) {
    return (
      <>
        <p className="reply-summary">{summaryOf(entry.text)}</p>
        <ModelPicker
          data={models}
          showCurrent={latestModel}
          disabled={disabled}
          onPick={(id) => onCommand(`/model ${id}`)}
        />
      </>
    );
  }
  const help = entry.command === 'help' ? asCommandList(entry.data) : undefined;
  if (help) {
    // The text's last line says how to read more (`/help <command>`).
    const footer = entry.text.trim().split('\n').at(-1);
    return <HelpTable commands={help} footer={footer?.startsWith('Type') ? footer : undefined} />;
  }
  const tasks = entry.command === 'tasks' ? asTaskList(entry.data) : undefined;
  if (tasks && tasks.length > 0) {
    return (
      <>
        <p className="reply-summary">{entry.text.split('\n')[0]}</p>
        <ul className="reply-tasks">
          {taskTree(tasks).map((task) => (
            <li
              key={task.id}
              className={task.current ? 'is-current' : undefined}
              style={{ '--depth': Math.min(task.depth, 3) } as CSSProperties}
            >
              {/* The summary's "* is this one": the star is drawn, and said in words. */}
              <span className="reply-task-star" aria-hidden="true">
                {task.current ? '*' : ''}
              </span>
              {task.depth > 0 && <TaskBranch fork={task.fork === true} />}
              <a href={taskHref(task.id)} aria-current={task.current ? 'page' : undefined}>
                {task.title}
              </a>
              {task.current && <span className="reply-task-this">this task</span>}
              {task.state !== undefined && <StatePill state={task.state} />}
            </li>
          ))}
        </ul>
      </>
    );
  }
  return <pre className="reply-text">{entry.text}</pre>;
}

/** Where a sub-task (↳) or a fork (its icon) hangs from the task above it. */
function TaskBranch({ fork }: { fork: boolean }) {
  return fork ? (
    <span className="reply-task-branch">
      <ForkIcon />
      <span className="sr-only">Fork: </span>
    </span>
  ) : (
    <span className="reply-task-branch">
      <span aria-hidden="true">↳</span>
      <span className="sr-only">Sub-task: </span>
    </span>
  );
}
