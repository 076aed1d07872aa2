import { TaskState } from '@a2a-js/sdk';

/** How each ending reads in a sentence. */
const ENDINGS: Partial<Record<TaskState, string>> = {
  [TaskState.TASK_STATE_CANCELED]: 'was canceled',
  [TaskState.TASK_STATE_FAILED]: 'failed',
  [TaskState.TASK_STATE_REJECTED]: 'was rejected',
  [TaskState.TASK_STATE_COMPLETED]: 'is complete',
};

/** What the message box says on an ended task, and why a prompt is not sent there. */
export const ENDED_PLACEHOLDER = 'This task has ended: type / for a command';
export const ENDED_PROMPT_REFUSAL =
  'This task has ended and takes no more messages. Start a new chat, or /fork it to go on.';

/**
 * In place of an invitation to type: the task has ended (SEMANTICS §4: it
 * takes no more prompts, though commands still run), and the ways on, a new
 * chat, or a fork that copies the conversation into a task that goes on.
 */
export function EndedTask({
  state,
  canFork,
  onNewChat,
  onFork,
}: {
  state: TaskState;
  canFork: boolean;
  onNewChat: () => void;
  onFork: () => void;
}) {
  return (
    <section className="ended-task" aria-label="This task has ended">
      <p className="ended-text">
        This task {ENDINGS[state] ?? 'has ended'} and takes no more messages. Commands still work.
      </p>
      <div className="ended-actions">
        <button type="button" className="button button--small" onClick={onNewChat}>
          New chat
        </button>
        {canFork && (
          <button type="button" className="button button--small" onClick={onFork}>
            Fork it (/fork)
          </button>
        )}
      </div>
    </section>
  );
}
