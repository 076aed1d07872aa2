/**
 * The client side of the fault suite: every call it makes, and what came
 * back, in a ledger that the checks read after each fault.
 */
import { rpc, rpcStream, userText } from 'a2a-testing/http';

export interface StreamEntry {
  text: string;
  messageId: string;
  via: string;
  taskId?: string;
  /** The -32xxx error the send got instead of a task, if any. */
  error?: { code: number; message: string };
  /** The stream broke (its instance died). */
  broken?: boolean;
  chunks: number;
  finalText?: string;
  endedAt?: number;
  /** Events after the final one: none may come. */
  afterFinal: number;
  done: Promise<void>;
}

export interface Subscription {
  taskId: string;
  via: string;
  /** Chunks of a turn that came after a final event that ended it. */
  lateChunks: number;
  finals: string[];
  /** The command of each reply it got, in order. */
  commands: string[];
  /** Ends the subscription. */
  close(): Promise<void>;
}

const textOf = (message: any): string => message?.parts?.[0]?.text ?? '';

/** A turn's final event on the wire: input-required, and no command's reply. */
function finalOf(result: any): any {
  const update = result?.statusUpdate;
  if (!update || update.metadata?.command) return undefined;
  return update.status?.state === 'TASK_STATE_INPUT_REQUIRED' ? update : undefined;
}

/** One streamed message, read to its end in the background. */
export function streamMessage(
  baseUrl: string,
  text: string,
  taskId?: string,
  messageId = crypto.randomUUID(),
): StreamEntry {
  const entry = { text, messageId, via: baseUrl, taskId, chunks: 0, afterFinal: 0 } as StreamEntry;
  entry.done = (async () => {
    try {
      const message = { ...userText(text, taskId ? { taskId } : {}), messageId };
      const { events } = await rpcStream(baseUrl, 'SendStreamingMessage', { message });
      for (let raw = await events.next(); raw !== undefined; raw = await events.next()) {
        if (raw.error) {
          entry.error = raw.error;
          return;
        }
        if (entry.finalText !== undefined) {
          entry.afterFinal++;
          continue;
        }
        const result = raw.result;
        if (result.task) entry.taskId = result.task.id;
        if (result.artifactUpdate) entry.chunks++;
        const final = finalOf(result);
        if (final) {
          entry.finalText = textOf(final.status.message);
          entry.endedAt = Date.now();
        }
      }
    } catch {
      entry.broken = true;
      entry.endedAt = Date.now();
    }
  })();
  return entry;
}

/** A streamed message whose send is tried again, same messageId, while the database is away. */
export async function streamMessageRetried(
  baseUrl: string,
  text: string,
  taskId?: string,
): Promise<StreamEntry> {
  const messageId = crypto.randomUUID();
  for (let attempt = 0; ; attempt++) {
    const entry = streamMessage(baseUrl, text, taskId, messageId);
    await Promise.race([entry.done, waitUntil(() => entry.taskId !== undefined)]);
    if (entry.error?.code !== -32603 || attempt >= 40) return entry;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** SubscribeToTask, watched for chunks of a turn that has had its final event. */
export async function subscribe(baseUrl: string, taskId: string): Promise<Subscription> {
  const { events } = await rpcStream(baseUrl, 'SubscribeToTask', { id: taskId });
  const ended = new Set<string>();
  let current: string | undefined;
  const subscription: Subscription = {
    taskId,
    via: baseUrl,
    lateChunks: 0,
    finals: [],
    commands: [],
    close: () => events.cancel(),
  };
  const first = await events.next();
  if (!first?.result?.task) throw new Error(`SubscribeToTask failed: ${JSON.stringify(first)}`);
  void (async () => {
    try {
      for (let raw = await events.next(); raw !== undefined; raw = await events.next()) {
        const result = raw.result ?? {};
        const artifactId: string | undefined = result.artifactUpdate?.artifact?.artifactId;
        if (artifactId) {
          if (ended.has(artifactId)) subscription.lateChunks++;
          current = artifactId;
        }
        const command = result.statusUpdate?.metadata?.command;
        if (typeof command === 'string') subscription.commands.push(command);
        const final = finalOf(result);
        if (final) {
          subscription.finals.push(textOf(final.status.message));
          if (current) ended.add(current);
        }
      }
    } catch {
      // Closed by the test, or its instance went away.
    }
  })();
  return subscription;
}

/**
 * A blocking SendMessage, timed; sent again, same messageId, while the
 * database is away (-32603), as a client that follows the error's advice does.
 */
export async function sendBlocking(
  baseUrl: string,
  text: string,
  taskId?: string,
): Promise<{ ms: number; state?: string; text: string; error?: { code: number } }> {
  const started = Date.now();
  const message = userText(text, taskId ? { taskId } : {});
  for (let attempt = 0; ; attempt++) {
    const { body } = await rpc(baseUrl, 'SendMessage', { message });
    if (body.error?.code === -32603 && attempt < 40) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    const status = body.result?.task?.status;
    return {
      ms: Date.now() - started,
      state: status?.state,
      text: textOf(status?.message),
      error: body.error,
    };
  }
}

export async function waitUntil(check: () => boolean, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** What a burst of concurrent sends to one task got: the texts taken, and the errors of the rest. */
export interface Burst {
  taskId: string;
  taken: string[];
  refused: string[];
  errors: { code?: number; message?: string }[];
}

/**
 * `count` messages sent at once to one task, round-robin over `baseUrls`,
 * each `returnImmediately`: which were taken and which refused.
 */
export async function sendBurst(
  baseUrls: string[],
  taskId: string,
  label: string,
  count: number,
): Promise<Burst> {
  const texts = Array.from({ length: count }, (_, i) => `${label} ${i}`);
  const answers = await Promise.all(
    texts.map((text, i) =>
      rpc(baseUrls[i % baseUrls.length]!, 'SendMessage', {
        message: userText(text, { taskId }),
        configuration: { returnImmediately: true },
      }),
    ),
  );
  const burst: Burst = { taskId, taken: [], refused: [], errors: [] };
  answers.forEach(({ body }, i) => {
    if (body.result) burst.taken.push(texts[i]!);
    else {
      burst.refused.push(texts[i]!);
      burst.errors.push({ code: body.error?.code, message: body.error?.message });
    }
  });
  return burst;
}
