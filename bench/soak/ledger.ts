/**
 * What the clients know each task must hold, counted as they go, and the pool
 * of live tasks they pick from.
 */

export interface TaskRecord {
  id: string;
  contextId: string;
  /** Ids of the user messages the server accepted: commands and turns. */
  accepted: Set<string>;
  /** Ids of the command replies the clients got. */
  replies: Set<string>;
  /** Texts of the accepted ordinary messages, each unique. */
  turns: string[];
  /** Turns whose answer a client saw (the end of its stream, or SendMessage's result). */
  answersSeen: number;
  turnsInFlight: number;
  /** Set before CancelTask is sent: from then on, refusals of turns are expected. */
  cancelRequested: boolean;
  /** A request on it failed unexpectedly, so what it holds is not exactly known. */
  uncertain: boolean;
}

export class Ledger {
  readonly tasks = new Map<string, TaskRecord>();
  private live: TaskRecord[] = [];

  constructor(private readonly random: () => number) {}

  add(id: string, contextId: string): TaskRecord {
    const record: TaskRecord = {
      id,
      contextId,
      accepted: new Set(),
      replies: new Set(),
      turns: [],
      answersSeen: 0,
      turnsInFlight: 0,
      cancelRequested: false,
      uncertain: false,
    };
    this.tasks.set(id, record);
    this.live.push(record);
    return record;
  }

  get liveCount(): number {
    return this.live.length;
  }

  pickLive(): TaskRecord | undefined {
    return this.live[Math.floor(this.random() * this.live.length)];
  }

  /** A live task with a turn in flight, when there is one. */
  pickBusy(): TaskRecord | undefined {
    const busy = this.live.filter((task) => task.turnsInFlight > 0);
    return busy[Math.floor(this.random() * busy.length)];
  }

  /** Takes the task out of the pool before it is canceled. */
  retire(task: TaskRecord): void {
    task.cancelRequested = true;
    this.live = this.live.filter((t) => t !== task);
  }
}

/** Requests by kind, expected refusals, and every other error, listed. */
export class Tally {
  readonly requests = new Map<string, number>();
  readonly refusals = new Map<string, number>();
  /** Commands sent, by name. */
  readonly commands = new Map<string, number>();
  readonly errors: { kind: string; taskId?: string; message: string }[] = [];

  count(kind: string): void {
    this.requests.set(kind, (this.requests.get(kind) ?? 0) + 1);
  }

  countCommand(name: string): void {
    this.commands.set(name, (this.commands.get(name) ?? 0) + 1);
  }

  refused(kind: string): void {
    this.refusals.set(kind, (this.refusals.get(kind) ?? 0) + 1);
  }

  error(kind: string, message: string, task?: { id: string; uncertain: boolean }): void {
    this.errors.push({ kind, taskId: task?.id, message });
    if (task) task.uncertain = true;
  }
}
