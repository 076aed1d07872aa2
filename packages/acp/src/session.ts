import { TaskState, type StreamResponse, type Task } from '@a2a-js/sdk';
import {
  RequestError,
  type ContentBlock,
  type SessionUpdate,
  type StopReason,
} from '@agentclientprotocol/sdk';
import { emptyTranscript, TranscriptCore, type Transcript } from 'a2a-chat-core';
import {
  commandRequestOptions,
  isRunningState,
  isTerminalState,
  parseCommandText,
  sendText,
  streamText,
  type CommandSpec,
} from 'a2a-commands/client';
import { newMessage, USER } from 'a2a-commands';
import type { A2AAgent } from './a2a-agent.js';
import { describeError } from './errors.js';
import { followAgain, readStream, type EventSink, type StreamOutcome } from './follow.js';
import { promptMessage } from './prompt-message.js';
import { TranscriptUpdates } from './transcript-updates.js';

export interface SessionOptions {
  agent: A2AAgent;
  /** The card's commands now (they change while the session is open). */
  commands: () => readonly CommandSpec[];
  /** Sends one `session/update` to the editor. */
  notify: (update: SessionUpdate) => Promise<void>;
  giveUpAfterMs: number;
  /** How long a cancel may take before the bridge stops reading the turn itself. */
  cancelGraceMs: number;
  log: (line: string) => void;
}

/** The prompt in flight: its stream, and whether the editor canceled it. */
interface Turn {
  abort: AbortController;
  cancelled: boolean;
}

/**
 * One ACP session: one A2A task, created by the first prompt (or named by
 * `session/load`) and kept. What the task's events mean is the transcript's
 * business (a2a-chat-core); the session sends the editor what changed.
 */
export class BridgeSession implements EventSink {
  private transcript: Transcript = emptyTranscript;
  private readonly core = new TranscriptCore();
  private readonly updates: TranscriptUpdates;
  private outbox: Promise<void> = Promise.resolve();
  private turn: Turn | undefined;
  /** A running answer joined by `session/load`, followed until its turn ends. */
  private joined: { abort: AbortController; done: Promise<void> } | undefined;
  private announcedTask: string | undefined;
  /** A cancel sent `/stop` for the answer in flight. */
  private stopping = false;

  constructor(private readonly options: SessionOptions) {
    this.updates = new TranscriptUpdates(options.agent.url);
  }

  get taskId(): string | undefined {
    return this.transcript.taskId;
  }

  running(): boolean {
    return isRunningState(this.transcript.state);
  }

  apply(event: StreamResponse, adopt: boolean): void {
    this.change(this.core.reduce(this.transcript, { type: 'event', event, adopt }));
  }

  /** Whether the agent runs `text` as a command: only names its card lists (SEMANTICS §2). */
  private isCommand(text: string): boolean {
    const parsed = parseCommandText(text);
    return parsed !== undefined && this.options.commands().some((c) => c.name === parsed.name);
  }

  /** The transcript moves on; the editor gets what is new, in order. */
  private change(next: Transcript, users = false): void {
    const updates = this.updates.between(this.transcript, next, {
      users,
      // The editor's own cancel: it shows that itself, and the reply would cut into the answer.
      quiet: (entry) => entry.kind === 'reply' && entry.command === 'stop' && this.stopping,
    });
    this.transcript = next;
    if (next.taskId && next.taskId !== this.announcedTask) {
      this.announcedTask = next.taskId;
      updates.push({
        sessionUpdate: 'session_info_update',
        _meta: { a2aTask: { taskId: next.taskId, contextId: next.contextId ?? null } },
      });
    }
    for (const update of updates) {
      this.outbox = this.outbox
        .then(() => this.options.notify(update))
        .catch((error: unknown) =>
          this.options.log(`could not send an update: ${describeError(error)}`),
        );
    }
  }

  /** Every update so far has been handed to the connection. */
  flushed(): Promise<void> {
    return this.outbox;
  }

  /**
   * `session/load`: the task's history replayed (the user's messages too),
   * and a running answer joined from the answer so far and followed.
   */
  load(task: Task): void {
    this.change(this.core.reduce(emptyTranscript, { type: 'reset', task }), true);
    if (isRunningState(task.status?.state)) this.join(task.id);
  }

  private join(taskId: string): void {
    const abort = new AbortController();
    const done = followAgain(this.options.agent.client, taskId, this, {
      signal: abort.signal,
      // It was running a moment ago: read it at once.
      immediate: true,
      giveUpAfterMs: this.options.giveUpAfterMs,
      log: this.options.log,
    })
      .then(() => undefined)
      .catch((error: unknown) => {
        this.options.log(`lost the joined answer: ${describeError(error)}`);
        this.change(
          this.core.reduce(this.transcript, {
            type: 'note',
            text: describeError(error),
            tone: 'error',
          }),
        );
      })
      .finally(() => {
        if (this.joined?.abort === abort) this.joined = undefined;
      });
    this.joined = { abort, done };
  }

  /** `session/prompt`: the prompt as an A2A message on the session's task, followed to its end. */
  async prompt(blocks: readonly ContentBlock[]): Promise<StopReason> {
    if (this.turn) {
      throw RequestError.invalidRequest(undefined, 'a prompt is already running in this session');
    }
    const turn: Turn = { abort: new AbortController(), cancelled: false };
    this.turn = turn;
    try {
      const message = promptMessage(blocks);
      const command = message.kind === 'text' && this.isCommand(message.text);
      // SEMANTICS §4: a command is answered at once; a prompt waits for a joined answer to end.
      if (!command) await this.joined?.done;
      if (turn.cancelled) return 'cancelled';
      const outcome = await this.send(message, command, turn);
      if (outcome === 'lost' && this.taskId) {
        await followAgain(this.options.agent.client, this.taskId, this, {
          signal: turn.abort.signal,
          giveUpAfterMs: this.options.giveUpAfterMs,
          log: this.options.log,
        });
      }
      if (turn.cancelled) return 'cancelled';
      return this.transcript.state === TaskState.TASK_STATE_REJECTED ? 'refusal' : 'end_turn';
    } finally {
      if (this.turn === turn) this.turn = undefined;
      this.stopping = false;
      await this.flushed();
    }
  }

  private send(
    message: ReturnType<typeof promptMessage>,
    command: boolean,
    turn: Turn,
  ): Promise<StreamOutcome> {
    const { client } = this.options.agent;
    const { taskId, contextId } = this.transcript;
    // SEMANTICS §4: commands run on ended tasks too; a prompt after one starts the
    // context's next task, which continues the conversation (SEMANTICS §10).
    const fresh = taskId === undefined || (!command && isTerminalState(this.transcript.state));
    const target = { taskId: fresh ? undefined : taskId, contextId };
    const requestOptions = { signal: turn.abort.signal };
    const events =
      message.kind === 'text'
        ? streamText(client, message.text, { ...target, requestOptions })
        : client.sendMessageStream(
            {
              tenant: '',
              message: newMessage({ role: USER, parts: message.parts, ...target }),
              configuration: undefined,
              metadata: undefined,
            },
            commandRequestOptions(requestOptions),
          );
    return readStream(events, this, { signal: turn.abort.signal, adopt: fresh, command });
  }

  /**
   * `session/cancel`: the running answer is stopped with `/stop` when the card
   * lists it (the task goes on), else with CancelTask (which ends the task;
   * the next prompt starts the context's next task). Either way the turn's own
   * stream brings the answer so far and ends; if it does not in time, the
   * bridge stops reading it.
   */
  async cancel(): Promise<void> {
    const turn = this.turn;
    if (!turn || turn.cancelled) return;
    turn.cancelled = true;
    const grace = setTimeout(() => turn.abort.abort(), this.options.cancelGraceMs);
    grace.unref();
    turn.abort.signal.addEventListener('abort', () => clearTimeout(grace), { once: true });
    const { taskId, contextId } = this.transcript;
    if (taskId === undefined || !this.running()) {
      turn.abort.abort();
      this.joined?.abort.abort();
      return;
    }
    const { client } = this.options.agent;
    try {
      if (this.options.commands().some((c) => c.name === 'stop')) {
        this.stopping = true;
        await sendText(client, '/stop', { taskId, contextId });
      } else {
        await client.cancelTask(
          { tenant: '', id: taskId, metadata: undefined },
          commandRequestOptions(),
        );
      }
    } catch (error) {
      this.options.log(`could not stop the answer: ${describeError(error)}`);
      turn.abort.abort();
    }
  }

  /** The connection is closing: stop reading. */
  close(): void {
    this.turn?.abort.abort();
    this.joined?.abort.abort();
  }
}
