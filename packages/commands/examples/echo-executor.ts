// A stand-in for an agent's real work: after a delay it answers "You said: ..." and waits for input.
import { TaskState, type Message, type TaskStatusUpdateEvent } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutor } from '@a2a-js/sdk/server';
import { AGENT, newMessage, textPart } from 'a2a-commands';

function agentText(taskId: string, contextId: string, text: string): Message {
  return newMessage({ role: AGENT, parts: [textPart(text)], taskId, contextId });
}

function statusUpdate(
  taskId: string,
  contextId: string,
  state: TaskState,
  message?: Message,
): TaskStatusUpdateEvent {
  return {
    taskId,
    contextId,
    metadata: undefined,
    status: { state, message, timestamp: new Date().toISOString() },
  };
}

export function echoExecutor(turnDelayMs = 0): AgentExecutor {
  const running = new Map<string, AbortController>();
  return {
    async execute({ taskId, contextId, task, userMessage }, bus) {
      const working = statusUpdate(taskId, contextId, TaskState.TASK_STATE_WORKING);
      // A follow-up turn publishes an empty history: a non-empty one would replace the stored one.
      const history = task ? [] : [userMessage];
      bus.publish(
        AgentEvent.task({
          id: taskId,
          contextId,
          status: working.status,
          history,
          artifacts: [],
          metadata: task?.metadata ?? {},
        }),
      );
      const abort = new AbortController();
      running.set(taskId, abort);
      await new Promise<void>((done) => {
        const timer = setTimeout(done, turnDelayMs);
        abort.signal.addEventListener('abort', () => (clearTimeout(timer), done()));
      });
      running.delete(taskId);
      if (abort.signal.aborted) return;
      const text = userMessage.parts
        .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
        .join('');
      const answer = agentText(taskId, contextId, `You said: ${text}`);
      bus.publish(
        AgentEvent.statusUpdate(
          statusUpdate(taskId, contextId, TaskState.TASK_STATE_INPUT_REQUIRED, answer),
        ),
      );
    },
    // Always publishes CANCELED: the SDK waits for it even when no turn runs.
    async cancelTask(taskId, bus) {
      running.get(taskId)?.abort();
      bus.publish(AgentEvent.statusUpdate(statusUpdate(taskId, '', TaskState.TASK_STATE_CANCELED)));
    },
  };
}
