/**
 * Records what a chat receives from the harness, for the client core's tests
 * (packages/chat-core/test/recorded). Run it again when the harness's events change:
 *
 *   node --conditions=a2a-source --import tsx packages/harness/test/record/record-chat-events.ts
 *
 * It starts a real harness (offline model, slowed down so that a turn can be
 * joined in its middle) and talks to it with the A2A SDK's client, as both
 * chats do. Each file is the events in the order they arrived, each tagged
 * with the stream (or call) it came on.
 */
import { writeFileSync } from 'node:fs';
import type { StreamResponse, Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { streamText } from 'a2a-commands/client';
import { connect } from 'a2a-terminal-chat';
import { startHarness } from 'a2a-testing/harness';

type Step =
  /** The user sent this, opening the stream named `stream`. */
  | { sent: { stream: string; messageId: string; text: string } }
  | { stream: string; event: StreamResponse }
  | { call: 'GetTask' | 'CancelTask'; task: Task };

const OUT = new URL('../../../chat-core/test/recorded/', import.meta.url);
const longPrompt = (words: number) =>
  Array.from({ length: words }, (_, i) => `.${i + 1}`).join(' ');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class Recording {
  readonly steps: Step[] = [];
  constructor(readonly client: Client) {}

  /** Reads a stream to its end (or until `until` says stop), recording each event as it comes. */
  async read(
    stream: string,
    events: AsyncIterable<StreamResponse>,
    until?: (event: StreamResponse) => boolean,
  ): Promise<void> {
    for await (const event of events) {
      this.steps.push({ stream, event });
      if (until?.(event)) return;
    }
  }

  /** Sends `text` with SendStreamingMessage, recording what was sent: its events make `stream`. */
  send(stream: string, text: string, taskId?: string): AsyncIterable<StreamResponse> {
    const messageId = crypto.randomUUID();
    this.steps.push({ sent: { stream, messageId, text } });
    return streamText(this.client, text, { taskId, messageId });
  }

  async getTask(id: string): Promise<Task> {
    const task = await this.client.getTask({ tenant: '', id, historyLength: undefined });
    this.steps.push({ call: 'GetTask', task });
    return task;
  }

  save(name: string, description: string): void {
    const body = JSON.stringify({ description, steps: this.steps }, null, 1);
    writeFileSync(new URL(`${name}.json`, OUT), `${body}\n`);
    console.log(`${name}.json: ${this.steps.length} steps`);
  }
}

const isChunk = (event: StreamResponse) => event.payload?.$case === 'artifactUpdate';
const taskIdOf = (event: StreamResponse) =>
  event.payload?.$case === 'task' ? event.payload.value.id : undefined;
/** Ends a turn's stream: a status update that is not a reply, once the turn is over. */
const endsTurn = (event: StreamResponse) =>
  event.payload?.$case === 'statusUpdate' &&
  event.payload.value.metadata?.['command'] === undefined &&
  event.payload.value.status?.state !== 2 &&
  event.payload.value.status?.state !== 1;

/** A long turn, read up to its first chunks; returns the task id and the rest of its stream. */
async function startLongTurn(recording: Recording, words = 200) {
  const events = recording.send('turn', longPrompt(words))[Symbol.asyncIterator]();
  let taskId = '';
  let chunks = 0;
  while (chunks < 3) {
    const next = await events.next();
    if (next.done) throw new Error('the turn ended before it streamed');
    recording.steps.push({ stream: 'turn', event: next.value });
    taskId ||= taskIdOf(next.value) ?? '';
    if (isChunk(next.value)) chunks++;
  }
  return { taskId, rest: { [Symbol.asyncIterator]: () => events } };
}

const harness = await startHarness({ config: { offline: { latencyMs: 8 } } });
try {
  const { client } = await connect(harness.url);

  {
    const r = new Recording(client);
    await r.read('turn', r.send('turn', 'Say hello in five words'));
    r.save('turn', 'One prompt on a new task, streamed to its end.');
  }

  {
    const r = new Recording(client);
    const { taskId, rest } = await startLongTurn(r);
    const turn = r.read('turn', rest);
    await sleep(150);
    await r.getTask(taskId);
    await r.read('subscribe', client.resubscribeTask({ tenant: '', id: taskId }), endsTurn);
    await turn;
    r.save(
      'join-mid-answer',
      'A long turn; in its middle another client reads it with GetTask, then follows it with SubscribeToTask (snapshot with the answer so far, then appends).',
    );
  }

  {
    const r = new Recording(client);
    const { taskId, rest } = await startLongTurn(r);
    const turn = r.read('turn', rest);
    await sleep(100);
    await r.read('command', r.send('command', '/status', taskId));
    await turn;
    r.save(
      'command-during-turn',
      'A long turn; /status sent (streamed) while it runs: the reply comes on the command stream and on the turn stream.',
    );
  }

  {
    const r = new Recording(client);
    const { taskId, rest } = await startLongTurn(r);
    const turn = r.read('turn', rest);
    await sleep(100);
    await r.read('command', r.send('command', '/stop', taskId));
    await turn;
    await r.getTask(taskId);
    r.save(
      'stopped-turn',
      'A long turn stopped with /stop: the answer so far ends the turn, marked stopped; the task goes on.',
    );
  }

  {
    const r = new Recording(client);
    const { taskId, rest } = await startLongTurn(r);
    const turn = r.read('turn', rest);
    await sleep(100);
    const canceled = await client.cancelTask({ tenant: '', id: taskId, metadata: undefined });
    r.steps.push({ call: 'CancelTask', task: canceled });
    await turn;
    r.save('canceled-task', 'A long turn whose task is canceled with CancelTask.');
  }

  {
    const r = new Recording(client);
    const { taskId, rest } = await startLongTurn(r, 300);
    const turn = r.read('turn', rest);
    await sleep(100);
    // The first subscription is cut after a few chunks, as a network outage cuts it.
    let seen = 0;
    await r.read('subscribe-1', client.resubscribeTask({ tenant: '', id: taskId }), (event) =>
      isChunk(event) ? ++seen >= 3 : false,
    );
    await sleep(300);
    await r.read('subscribe-2', client.resubscribeTask({ tenant: '', id: taskId }), endsTurn);
    await turn;
    r.save(
      'outage',
      'A long turn followed with SubscribeToTask; the subscription is lost after a few chunks (an outage), and a new one opens 300 ms later.',
    );
  }

  {
    const r = new Recording(client);
    let taskId = '';
    await r.read('turn', r.send('turn', 'Remember the word kiwi'), (event) => {
      taskId ||= taskIdOf(event) ?? '';
      return false;
    });
    await r.read('command', r.send('command', '/clear', taskId));
    await r.read('turn-2', r.send('turn-2', 'Which word?', taskId));
    await r.getTask(taskId);
    r.save('clear', 'A turn, /clear, another turn, then the task read with GetTask.');
  }
} finally {
  await harness.stop();
}
