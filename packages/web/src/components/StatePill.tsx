import type { TaskState } from '@a2a-js/sdk';
import { stateLook } from '../a2a/task-states.js';

/** A task's state as a small coloured label. */
export function StatePill({ state, className = '' }: { state: TaskState; className?: string }) {
  const look = stateLook(state);
  return (
    <span className={`state state--${look.tone} ${className}`.trim()}>
      <span className="state-dot" aria-hidden="true" />
      {look.label}
    </span>
  );
}
