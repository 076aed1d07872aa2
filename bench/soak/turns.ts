/** Model turns (SendMessage, SendStreamingMessage) and subscriptions, as the soak's clients run them. */
import { textOf } from 'a2a-testing/history-audit';
import { guarded, isExpectedRefusal, type ClientContext } from './client.js';
import type { TaskRecord } from './ledger.js';
import {
  userMessage,
  type Binding,
  type EventStream,
  type StreamEvent,
  type WireError,
  type WireMessage,
  type WireTask,
} from './wire.js';

/** How long a subscription is read before the client closes it. */
const SUBSCRIBE_MS = { min: 200, max: 1500 };

type Mode = 'SendMessage' | 'SendStreamingMessage';

export async function runTurn(ctx: ClientContext, mode: Mode, binding: Binding): Promise<void> {
  const task = ctx.ledger.pickLive();
  if (!task) return;
  const kind = `turn ${mode} (${binding})`;
  const text = `turn ${ctx.label()}`;
  const message = userMessage(text, { taskId: task.id });
  const accepted = () => {
    task.accepted.add(message.messageId);
    task.turns.push(text);
  };
  task.turnsInFlight++;
  try {
    await guarded(ctx, kind, task, async () => {
      if (mode === 'SendMessage') {
        const outcome =
          binding === 'JSON-RPC'
            ? await ctx.wire.rpc<{ task: WireTask }>('SendMessage', { message })
            : await ctx.wire.rest<{ task: WireTask }>('/message:send', { message });
        if (!outcome.ok) return refusedOrError(ctx, kind, task, outcome.error);
        accepted();
        const result = outcome.value.task;
        return judgeEnd(ctx, kind, task, text, result.status.state, result.history?.[1]);
      }
      const opened =
        binding === 'JSON-RPC'
          ? await ctx.wire.rpcStream('SendStreamingMessage', { message })
          : await ctx.wire.restStream('/message:stream', { message });
      if (!opened.ok) return refusedOrError(ctx, kind, task, opened.error);
      const stream = opened.value;
      try {
        const first = await stream.next();
        if (first?.task?.id !== task.id)
          return ctx.tally.error(kind, 'the stream did not start with its task', task);
        accepted();
        const last = await lastStatus(stream);
        judgeEnd(ctx, kind, task, text, last?.status.state, last?.status.message);
      } finally {
        await stream.close();
      }
    });
  } finally {
    task.turnsInFlight--;
  }
}

function refusedOrError(ctx: ClientContext, kind: string, task: TaskRecord, error: WireError) {
  if (isExpectedRefusal(task, error)) ctx.tally.refused(kind);
  else ctx.tally.error(kind, error.message, task);
}

/** The turn's own last status update; command replies slipped into the stream are not it. */
async function lastStatus(stream: EventStream): Promise<StreamEvent['statusUpdate']> {
  let last: StreamEvent['statusUpdate'];
  for (let event = await stream.next(); event; event = await stream.next())
    if (event.statusUpdate && !event.statusUpdate.metadata?.command) last = event.statusUpdate;
  return last;
}

/** A turn ends answered, each answer echoing its own message; or canceled, if a client canceled it. */
function judgeEnd(
  ctx: ClientContext,
  kind: string,
  task: TaskRecord,
  text: string,
  state: string | undefined,
  answer: WireMessage | undefined,
): void {
  if (state === 'TASK_STATE_CANCELED' && task.cancelRequested) return;
  if (state !== 'TASK_STATE_INPUT_REQUIRED')
    return ctx.tally.error(kind, `"${text}" ended in ${state}`, task);
  if (answer?.role !== 'ROLE_AGENT' || !textOf(answer).endsWith(`You said: ${text}`))
    return ctx.tally.error(
      kind,
      `"${text}" was answered with "${answer ? textOf(answer) : 'nothing'}"`,
      task,
    );
  task.answersSeen++;
}

/** SubscribeToTask on a busy task when there is one: read a while, then hang up. */
export async function subscribe(ctx: ClientContext, binding: Binding): Promise<void> {
  const task = ctx.ledger.pickBusy() ?? ctx.ledger.pickLive();
  if (!task) return;
  const kind = `SubscribeToTask (${binding})`;
  await guarded(ctx, kind, task, async () => {
    const opened =
      binding === 'JSON-RPC'
        ? await ctx.wire.rpcStream('SubscribeToTask', { id: task.id })
        : await ctx.wire.restStream(`/tasks/${task.id}:subscribe`);
    if (!opened.ok) return refusedOrError(ctx, kind, task, opened.error);
    const stream = opened.value;
    const readFor = SUBSCRIBE_MS.min + ctx.random() * (SUBSCRIBE_MS.max - SUBSCRIBE_MS.min);
    let timer: NodeJS.Timeout | undefined;
    const hangUp = new Promise<'hang up'>((resolve) => {
      timer = setTimeout(() => resolve('hang up'), readFor);
    });
    try {
      for (let count = 0; ; count++) {
        const next = stream.next();
        const event = await Promise.race([next, hangUp]);
        if (event === 'hang up') {
          next.catch(() => undefined); // ended by the close below
          return;
        }
        if (event === undefined) return;
        if (count === 0 && event.task?.id !== task.id)
          return ctx.tally.error(kind, 'the subscription did not start with its task', task);
      }
    } finally {
      clearTimeout(timer);
      await stream.close();
    }
  });
}
