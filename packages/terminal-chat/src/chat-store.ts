import type { Connection } from './connection.js';
import { transcripts, type NoticeTone, type TranscriptAction } from './transcript.js';
import { emptyView, HOME, type TaskView } from './views.js';

export interface ChatState {
  agentName: string;
  url: string;
  commands: Connection['commands'];
  views: Readonly<Record<string, TaskView>>;
  /** The key of the view on screen. */
  active: string;
  /** A passing message for the footer. */
  status?: { text: string; tone: NoticeTone };
  /** A second Ctrl+C now quits. */
  quitArmed: boolean;
  /** Set while the agent does not answer: why (the chat is retrying). */
  offline?: string;
}

/** The task a quit chat resumes with `--task`: the one on screen (a fork or sub-task too). */
export function taskToResume(state: ChatState): string | undefined {
  return state.views[state.active]?.taskId ?? state.views[HOME]?.taskId;
}

/** How long a first Ctrl+C waits for the second, and a footer message stays. */
const ARM_MS = 3000;
const STATUS_MS = 6000;
/**
 * Listeners hear of changes at most this often. A stream's buffered events are
 * read in one go of microtasks; one redraw after them beats one per event.
 */
const NOTIFY_MS = 16;

/** The chat's state, as `useSyncExternalStore` reads it, and the small changes everyone makes. */
export class ChatStore {
  private state: ChatState;
  private readonly listeners = new Set<() => void>();
  private readonly timers: {
    status?: NodeJS.Timeout;
    arm?: NodeJS.Timeout;
    notify?: NodeJS.Timeout;
  } = {};

  constructor(session: Pick<Connection, 'url' | 'agentName' | 'commands'>, home: TaskView) {
    this.state = {
      agentName: session.agentName,
      url: session.url,
      commands: session.commands,
      views: { [HOME]: home },
      active: HOME,
      quitArmed: false,
    };
  }

  getState = (): ChatState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  view(key: string): TaskView {
    return this.state.views[key] ?? emptyView(key);
  }

  activate(key: string, view?: TaskView): void {
    this.update((s) => ({
      ...s,
      active: key,
      views: view ? { ...s.views, [key]: view } : s.views,
    }));
  }

  updateView(key: string, change: (view: TaskView) => TaskView): void {
    this.update((s) => ({ ...s, views: { ...s.views, [key]: change(this.view(key)) } }));
  }

  /** What the client core makes of `action` in a view's transcript. */
  apply(key: string, action: TranscriptAction): void {
    this.updateView(key, (v) => ({ ...v, ...transcripts.reduce(v, action) }));
  }

  /** A line in a view's transcript from the chat itself. */
  note(key: string, text: string, tone: NoticeTone = 'info'): void {
    this.apply(key, { type: 'note', text, tone });
  }

  /** The agent's card lists other commands now. */
  setCommands(commands: Connection['commands']): void {
    this.update((s) => ({ ...s, commands }));
  }

  /** The agent does not answer (why), or answers again (undefined). */
  setOffline(offline: string | undefined): void {
    if (this.state.offline === offline) return;
    this.update((s) => ({ ...s, offline }));
  }

  setStatus(text: string, tone: NoticeTone): void {
    clearTimeout(this.timers.status);
    this.update((s) => ({ ...s, status: { text, tone } }));
    this.timers.status = setTimeout(() => this.clearStatus(), STATUS_MS);
    this.timers.status.unref?.();
  }

  clearStatus(): void {
    if (this.state.status === undefined) return;
    this.update((s) => ({ ...s, status: undefined }));
  }

  /** The first Ctrl+C: the next one within ARM_MS quits. */
  arm(text: string): void {
    clearTimeout(this.timers.arm);
    this.update((s) => ({ ...s, quitArmed: true, status: { text, tone: 'warn' } }));
    this.timers.arm = setTimeout(() => this.disarm(), ARM_MS);
    this.timers.arm.unref?.();
  }

  disarm(): void {
    if (!this.state.quitArmed) return;
    clearTimeout(this.timers.arm);
    this.update((s) => ({ ...s, quitArmed: false, status: undefined }));
  }

  close(): void {
    for (const timer of Object.values(this.timers)) clearTimeout(timer);
  }

  private update(change: (state: ChatState) => ChatState): void {
    this.state = change(this.state);
    this.timers.notify ??= setTimeout(() => {
      this.timers.notify = undefined;
      for (const listener of this.listeners) listener();
    }, NOTIFY_MS);
  }
}
