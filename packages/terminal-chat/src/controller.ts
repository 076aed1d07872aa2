import { TaskState, type Task } from '@a2a-js/sdk';
import { TaskNotCancelableError } from '@a2a-js/sdk/errors';
import { ApiKeyRefusedError, keepShownAnswer } from 'a2a-chat-core';
import {
  isCommandReply,
  parseCommandText,
  sendText,
  streamText,
  taskRefOf,
} from 'a2a-commands/client';
import { completeArgument, type ArgumentValues } from 'a2a-commands/client/completion';
import type { CommandSpec } from 'a2a-commands/client';
import type { CommandCompletionParams } from 'a2a-commands/client/completion';
import type { AgentWatchTarget } from './agent-watch.js';
import type { Connection } from './connection.js';
import { describeError, isTaskNotFound } from './errors.js';
import { ChatStore, type ChatState } from './chat-store.js';
import { latestTaskRef } from './transcript.js';
import {
  emptyView,
  HOME,
  isEnded,
  isRunning,
  shortId,
  stateWords,
  viewOf,
  type TaskView,
} from './views.js';

/** What a Ctrl+C did. */
export type Interrupt = 'stopping' | 'canceling' | 'armed' | 'quit';

type Session = Pick<Connection, 'client' | 'url' | 'agentName' | 'commands'> &
  Partial<Pick<Connection, 'completion' | 'fetch'>>;

/**
 * The chat's state and everything it does over A2A, without any UI: the App
 * renders `getState()` and calls these methods. Each view is one task; the
 * home view follows the conversation when its task ends and another begins.
 */
export class ChatController implements AgentWatchTarget {
  private readonly store: ChatStore;
  /** The completion extension's params, as the card last gave them. */
  private completion: CommandCompletionParams | undefined;
  /** Per view: the stream of the turn it shows, to stop it on Ctrl+C. */
  private readonly turns = new Map<string, AbortController>();
  private readonly requests = new Set<AbortController>();

  constructor(
    private readonly session: Session,
    resumed?: Task,
    private readonly hooks: {
      /** A call could not reach the agent at all (the AgentWatch checks at once). */
      onUnreachable?: () => void;
    } = {},
  ) {
    this.completion = session.completion;
    const home: TaskView = resumed ? viewOf(resumed, HOME) : emptyView(HOME);
    this.store = new ChatStore(session, home);
    if (resumed && isEnded(home)) {
      this.store.note(
        HOME,
        `Task ${shortId(resumed.id)} has ended (${stateWords(home.state)}); commands still run on it, and your next message starts a new task in the same conversation.`,
      );
    }
    if (isRunning(home.state)) void this.attach(HOME);
  }

  getState = (): ChatState => this.store.getState();

  subscribe = (listener: () => void): (() => void) => this.store.subscribe(listener);

  /**
   * Values for the argument being typed in `input`, from the card's choices or
   * the agent (for this caller and the task in view); undefined when the agent
   * offers none, and the composer shows the hint.
   */
  argumentValues = (input: string, signal: AbortSignal): Promise<ArgumentValues | undefined> =>
    completeArgument(input, this.completion, {
      fetch: this.session.fetch,
      taskId: this.activeView().taskId,
      signal,
    });

  activeView(): TaskView {
    return this.store.view(this.getState().active);
  }

  /** Whether the agent runs `text` as a command: only names its card lists (SEMANTICS §2). */
  isCommand(text: string): boolean {
    const parsed = parseCommandText(text);
    return parsed !== undefined && this.getState().commands.some((c) => c.name === parsed.name);
  }

  /** Sends what the user typed to the task on screen; false when it was refused (keep the draft). */
  submit(text: string): boolean {
    if (text.trim() === '') return false;
    const view = this.activeView();
    const command = this.isCommand(text);
    // SEMANTICS §4: a command is answered at once, even during a turn; a message would queue.
    if (!command && view.busy) {
      this.store.setStatus('A turn is running: wait for it, or press Ctrl+C to stop it.', 'warn');
      return false;
    }
    this.store.clearStatus();
    // The message's own id is the entry's key: the task's history names it again.
    const messageId = crypto.randomUUID();
    this.store.apply(view.key, { type: 'sent', messageId, text });
    void (command
      ? this.runCommand(view.key, text, messageId)
      : this.runTurn(view.key, text, messageId));
    return true;
  }

  /**
   * Ctrl+C: stops the answer on screen with `/stop` when the agent offers it
   * (the task goes on), else cancels the task; idle, it arms quitting; armed, it quits.
   */
  interrupt(): Interrupt {
    if (this.getState().quitArmed) return 'quit';
    const stopping = this.stopAnswer();
    if (stopping === 'stopping') {
      this.store.arm('Stopping the answer… press Ctrl+C again to quit.');
    } else if (stopping === 'canceling') {
      this.store.arm('Canceling the task (this ends it)… press Ctrl+C again to quit.');
    } else {
      this.store.arm('Press Ctrl+C again to quit.');
    }
    return stopping ?? 'armed';
  }

  /**
   * Esc, and the first Ctrl+C: stops the answer on screen with `/stop` when
   * the agent offers it (the task goes on), else cancels the task. Undefined
   * when no answer is running here.
   */
  stopAnswer(): 'stopping' | 'canceling' | undefined {
    const view = this.activeView();
    if (!view.busy || !this.turns.has(view.key)) return undefined;
    if (view.taskId !== undefined && this.getState().commands.some((c) => c.name === 'stop')) {
      void this.stopTurn(view.key);
      return 'stopping';
    }
    void this.cancelTurn(view.key);
    return 'canceling';
  }

  /** Ctrl+Z suspended the chat and it was continued, or this terminal could not suspend it. */
  resumed(stopped: boolean): void {
    if (stopped) this.store.setStatus('Back from the background.', 'info');
    else
      this.store.setStatus(
        'Ctrl+Z cannot suspend the chat here: this shell has no job control.',
        'warn',
      );
  }

  /** Any other key: a later Ctrl+C starts over. */
  disarm(): void {
    this.store.disarm();
  }

  /** The sub-task key: opens the newest sub-task link on the home view, or goes back home. */
  toggleSubtask(): void {
    if (this.getState().active !== HOME) {
      this.store.activate(HOME);
      return;
    }
    const ref = latestTaskRef(this.store.view(HOME).entries);
    if (!ref) {
      this.store.setStatus('No sub-task link yet: a reply such as /spawn’s adds one.', 'info');
      return;
    }
    void this.openTask(ref);
  }

  /** Shows a task's transcript, read with GetTask, following its turn while one runs. */
  async openTask(id: string): Promise<void> {
    if (id === this.store.view(HOME).taskId) {
      this.store.activate(HOME);
      return;
    }
    const existing = this.getState().views[id];
    this.store.activate(id, existing ?? { ...emptyView(id), taskId: id });
    if (existing?.busy) return;
    await this.reload(id, id);
  }

  /** AgentWatch: the card lists other commands now; completion and `/` follow them. */
  commandsChanged(commands: readonly CommandSpec[], completion?: CommandCompletionParams): void {
    this.completion = completion;
    this.store.setCommands(commands);
  }

  /** AgentWatch: the agent does not answer (why), or answers again. */
  linkChanged(offline: string | undefined): void {
    this.store.setOffline(offline);
  }

  /** AgentWatch: the agent is back. The task on screen is read again, and its turn followed. */
  reconnected(): void {
    const view = this.activeView();
    if (view.taskId === undefined || this.turns.has(view.key)) return;
    void this.reload(view.key, view.taskId, 'Reconnected to the agent.', { keepAnswer: true });
  }

  /**
   * A view's task read again with GetTask (its turn followed while it runs);
   * `note` goes after what was read, which replaces the view's entries.
   */
  private async reload(
    key: string,
    id: string,
    note?: string,
    options: { keepAnswer?: boolean } = {},
  ): Promise<void> {
    try {
      const task = await this.request((signal) =>
        this.session.client.getTask({ tenant: '', id, historyLength: undefined }, { signal }),
      );
      this.store.updateView(key, (shown) => {
        const reread = viewOf(task, key);
        // After an outage, the answer on screen stays even if the agent kept less of it.
        if (!options.keepAnswer) return reread;
        return { ...reread, entries: keepShownAnswer(shown.entries, reread.entries) };
      });
      if (note) this.store.note(key, note);
      if (isRunning(task.status?.state)) await this.attach(key);
    } catch (error) {
      if (error instanceof TypeError) this.hooks.onUnreachable?.();
      const text = isTaskNotFound(error)
        ? `Task ${shortId(id)} was not found on this agent.`
        : `Could not read task ${shortId(id)}: ${describeError(error)}`;
      this.store.note(key, text, 'error');
    }
  }

  /** Stops every request; the chat is closing. */
  close(): void {
    for (const controller of [...this.requests, ...this.turns.values()]) controller.abort();
    this.store.close();
  }

  private async runCommand(key: string, text: string, messageId: string): Promise<void> {
    const view = this.store.view(key);
    try {
      const result = await this.request((signal) =>
        // SEMANTICS §4: commands run on ended tasks too, so they go to the task as it is.
        sendText(this.session.client, text, {
          taskId: view.taskId,
          contextId: view.contextId,
          messageId,
          requestOptions: { signal },
        }),
      );
      this.store.apply(key, { type: 'accepted', messageId });
      this.store.apply(key, { type: 'result', result });
    } catch (error) {
      this.fail(key, error);
    }
  }

  private async runTurn(key: string, text: string, messageId: string): Promise<void> {
    const view = this.store.view(key);
    const fresh = view.taskId === undefined || isEnded(view);
    if (view.taskId !== undefined && fresh) {
      this.store.note(
        key,
        `Task ${shortId(view.taskId)} has ended (${stateWords(view.state)}); this message starts a new task in the same conversation.`,
      );
    }
    const abort = new AbortController();
    this.turns.set(key, abort);
    this.store.updateView(key, (v) => ({ ...v, busy: true }));
    try {
      const events = streamText(this.session.client, text, {
        taskId: fresh ? undefined : view.taskId,
        contextId: view.contextId,
        messageId,
        requestOptions: { signal: abort.signal },
      });
      for await (const event of events) {
        this.store.apply(key, { type: 'accepted', messageId });
        this.store.apply(key, { type: 'event', event, adopt: fresh });
      }
    } catch (error) {
      if (!abort.signal.aborted) this.fail(key, error);
    } finally {
      if (this.turns.get(key) === abort) this.turns.delete(key);
      this.store.updateView(key, (v) => ({ ...v, busy: false }));
    }
  }

  /** Follows a turn that was already running when the view opened (SubscribeToTask). */
  private async attach(key: string): Promise<void> {
    const { taskId } = this.store.view(key);
    if (!taskId) return;
    const abort = new AbortController();
    this.turns.set(key, abort);
    this.store.updateView(key, (v) => ({ ...v, busy: true }));
    try {
      const events = this.session.client.resubscribeTask(
        { tenant: '', id: taskId },
        { signal: abort.signal },
      );
      for await (const event of events) {
        this.store.apply(key, { type: 'event', event });
        const update = event.payload?.$case === 'statusUpdate' ? event.payload.value : undefined;
        const state = update?.status?.state;
        if (state !== undefined && !isRunning(state) && !isCommandReply(event)) break;
      }
    } catch (error) {
      if (!abort.signal.aborted) this.fail(key, error);
    } finally {
      abort.abort();
      if (this.turns.get(key) === abort) this.turns.delete(key);
      this.store.updateView(key, (v) => ({ ...v, busy: false }));
    }
  }

  /**
   * Ctrl+C during a turn, when the card lists `/stop`: the agent ends the turn,
   * keeps the answer so far (marked stopped) and the task goes on. The turn's
   * own stream brings that answer and the task's next state; the reply's state
   * was taken while the turn still ran, so only its message is shown.
   */
  private async stopTurn(key: string): Promise<void> {
    const { taskId, contextId } = this.store.view(key);
    try {
      const result = await this.request((signal) =>
        sendText(this.session.client, '/stop', { taskId, contextId, requestOptions: { signal } }),
      );
      const message = 'messageId' in result ? result : result.status?.message;
      if (message) this.store.apply(key, { type: 'message', message });
    } catch (error) {
      this.fail(key, error);
    }
  }

  /**
   * Ctrl+C during a turn. The chat stops reading the turn and sends CancelTask,
   * which ends the whole task (TASK_STATE_CANCELED), not only the turn. So the
   * conversation goes on in a copy made with /fork when the agent offers it
   * (SEMANTICS §4: commands still run on the ended task); otherwise the next
   * message starts a new task in the same context.
   */
  private async cancelTurn(key: string): Promise<void> {
    this.turns.get(key)?.abort();
    this.store.apply(key, { type: 'left' });
    this.store.updateView(key, (v) => ({ ...v, busy: false }));
    const { taskId, contextId } = this.store.view(key);
    if (!taskId) {
      this.store.note(key, 'Turn stopped before the agent started a task.', 'warn');
      return;
    }
    try {
      const task = await this.request((signal) =>
        this.session.client.cancelTask({ tenant: '', id: taskId, metadata: undefined }, { signal }),
      );
      this.store.updateView(key, (v) => ({ ...v, state: task.status?.state }));
    } catch (error) {
      if (error instanceof TaskNotCancelableError) {
        this.store.note(key, 'The turn had already finished; nothing was canceled.');
      } else {
        this.fail(key, error);
      }
      return;
    }
    const ended = `Turn canceled. CancelTask ends the task, so task ${shortId(taskId)} is closed`;
    if (this.getState().commands.some((c) => c.name === 'fork')) {
      try {
        const result = await this.request((signal) =>
          sendText(this.session.client, '/fork', { taskId, contextId, requestOptions: { signal } }),
        );
        const fork = taskRefOf(result);
        if (fork) {
          this.store.apply(key, {
            type: 'moved',
            taskId: fork,
            state: TaskState.TASK_STATE_INPUT_REQUIRED,
          });
          this.store.note(
            key,
            `${ended}; the chat goes on in task ${shortId(fork)}, a copy of this conversation made with /fork.`,
            'warn',
          );
          return;
        }
      } catch {
        // No copy: fall through to a new task.
      }
    }
    this.store.note(
      key,
      `${ended}; your next message starts a new task in this conversation.`,
      'warn',
    );
  }

  private fail(key: string, error: unknown): void {
    // fetch failed: the agent did not answer at all.
    if (error instanceof TypeError) this.hooks.onUnreachable?.();
    const { taskId } = this.store.view(key);
    const text =
      isTaskNotFound(error) && taskId
        ? `Task ${shortId(taskId)} was not found on this agent.`
        : error instanceof ApiKeyRefusedError
          ? `${error.message} Start the chat again with the right key (--api-key or A2A_API_KEY).`
          : error instanceof TypeError
            ? `The agent did not answer: ${describeError(error)}`
            : `The agent refused it: ${describeError(error)}`;
    this.store.note(key, text, 'error');
  }

  private async request<T>(run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    this.requests.add(controller);
    try {
      return await run(controller.signal);
    } finally {
      this.requests.delete(controller);
    }
  }
}
