/** Commands, reads and cancels, as the soak's clients send them. */
import { textOf } from 'a2a-testing/history-audit';
import { guarded, pick, type ClientContext } from './client.js';
import type { TaskRecord } from './ledger.js';
import { userMessage, type Binding, type Outcome, type WireTask } from './wire.js';

/** The commands the clients type; `label` keeps each text unique. */
const COMMANDS: ((label: string) => string)[] = [
  () => '/help',
  () => '/help model',
  (label) => `/title soak ${label}`,
  () => '/model',
  () => '/model offline/echo',
  () => '/status',
  (label) => `/system Answer briefly (${label}).`,
  () => '/system --clear',
  () => '/tasks',
  () => '/clear',
];

function send(ctx: ClientContext, binding: Binding, message: unknown) {
  return binding === 'JSON-RPC'
    ? ctx.wire.rpc<{ task: WireTask }>('SendMessage', { message })
    : ctx.wire.rest<{ task: WireTask }>('/message:send', { message });
}

/** Records an answered command on its task; false when the answer is not its reply. */
function recordReply(
  ctx: ClientContext,
  kind: string,
  task: TaskRecord,
  text: string,
  messageId: string,
  outcome: Outcome<{ task: WireTask }>,
): void {
  if (!outcome.ok) return ctx.tally.error(kind, `${text}: ${outcome.error.message}`, task);
  const reply = outcome.value.task?.status.message;
  const name = text.slice(1).split(' ')[0];
  if (!reply || outcome.value.task.id !== task.id || reply.metadata?.command !== name)
    return ctx.tally.error(
      kind,
      `${text}: answered with "${reply ? textOf(reply) : 'nothing'}"`,
      task,
    );
  task.accepted.add(messageId);
  task.replies.add(reply.messageId);
}

export async function sendCommand(ctx: ClientContext, binding: Binding): Promise<void> {
  const task = ctx.ledger.pickLive();
  if (!task) return;
  const text = pick(ctx.random, COMMANDS)(ctx.label());
  ctx.tally.countCommand(text.split(' ')[0]!);
  await guarded(ctx, `command (${binding})`, task, async () => {
    const message = userMessage(text, { taskId: task.id });
    const outcome = await send(ctx, binding, message);
    recordReply(ctx, `command (${binding})`, task, text, message.messageId, outcome);
  });
}

/** A new task, made by a command with no task id: SEMANTICS §4 creates it, idle. */
export async function createTask(ctx: ClientContext): Promise<void> {
  const contextId = pick(ctx.random, ctx.contexts);
  const text = `/title soak ${ctx.label()}`;
  const message = userMessage(text, { contextId });
  ctx.tally.count('new task (JSON-RPC)');
  try {
    const outcome = await send(ctx, 'JSON-RPC', message);
    if (!outcome.ok) return ctx.tally.error('new task', `${text}: ${outcome.error.message}`);
    const task = ctx.ledger.add(outcome.value.task.id, contextId);
    recordReply(ctx, 'new task', task, text, message.messageId, outcome);
  } catch (error) {
    ctx.tally.error('new task', error instanceof Error ? error.message : String(error));
  }
}

export async function readTask(ctx: ClientContext, binding: Binding): Promise<void> {
  const task = ctx.ledger.pickLive();
  if (!task) return;
  await guarded(ctx, `GetTask (${binding})`, task, async () => {
    const outcome =
      binding === 'JSON-RPC'
        ? await ctx.wire.rpc<WireTask>('GetTask', { id: task.id, historyLength: 4 })
        : await ctx.wire.rest<WireTask>(`/tasks/${task.id}?historyLength=4`);
    if (!outcome.ok) ctx.tally.error(`GetTask (${binding})`, outcome.error.message, task);
    else if (outcome.value.id !== task.id)
      ctx.tally.error(`GetTask (${binding})`, `got task ${outcome.value.id}`, task);
  });
}

/** Cancels a live task for good, and starts a new one so that the pool keeps its size. */
export async function cancelTask(ctx: ClientContext, binding: Binding): Promise<void> {
  const task = ctx.ledger.pickLive();
  if (!task) return;
  ctx.ledger.retire(task);
  const kind = `CancelTask (${binding})`;
  await guarded(ctx, kind, task, async () => {
    const outcome =
      binding === 'JSON-RPC'
        ? await ctx.wire.rpc<WireTask>('CancelTask', { id: task.id })
        : await ctx.wire.rest<WireTask>(`/tasks/${task.id}:cancel`, {});
    if (!outcome.ok) ctx.tally.error(kind, outcome.error.message, task);
    else if (outcome.value.status.state !== 'TASK_STATE_CANCELED')
      ctx.tally.error(kind, `the task is ${outcome.value.status.state}`, task);
  });
  await createTask(ctx);
}
