import { StreamResponse } from '@a2a-js/sdk';
import type { TaskEvent } from '../turns/task-events.js';

/** What instances tell each other about a task. */
export type BusMessage =
  /** An event of a turn, for the streams open on the task. */
  | { kind: 'turn'; taskId: string; event: TaskEvent }
  /** A command's reply update, for the streams open on the task (SEMANTICS §3). */
  | { kind: 'reply'; taskId: string; event: StreamResponse }
  /** CancelTask: whoever runs this turn aborts it. */
  | { kind: 'cancel'; taskId: string; turnId: string }
  /** `/stop`: whoever runs this turn stops it, keeping its answer so far. */
  | { kind: 'stop'; taskId: string; turnId: string }
  /** The task has turns waiting and none running: whoever is free may claim them. */
  | { kind: 'queued'; taskId: string };

export type BusKind = BusMessage['kind'];

/** The part of a notification read before deciding whether the body is worth parsing. */
export interface BusHead {
  origin: string;
  kind: BusKind;
  taskId: string;
  /** The JSON body, or `@<id>` of the row holding a body too large for a notification. */
  body: string;
}

const KINDS: ReadonlySet<string> = new Set<BusKind>(['turn', 'reply', 'cancel', 'stop', 'queued']);

/** `<origin> <kind> <taskId> <body>`; `serial` keeps two equal events of one transaction distinct. */
export function encodeHead(origin: string, message: BusMessage): string {
  return `${origin} ${message.kind} ${message.taskId} `;
}

export function encodeBody(message: BusMessage, serial: number): string {
  switch (message.kind) {
    case 'turn':
      return JSON.stringify({
        n: serial,
        u: message.event.turnId,
        f: message.event.final,
        e: StreamResponse.toJSON(message.event.event),
      });
    case 'reply':
      return JSON.stringify({ n: serial, e: StreamResponse.toJSON(message.event) });
    case 'cancel':
    case 'stop':
      return JSON.stringify({ n: serial, u: message.turnId });
    case 'queued':
      return JSON.stringify({ n: serial });
  }
}

/** The sender's serial a body carries: its first field, read without parsing the rest. */
export function serialOf(body: string): number | undefined {
  const match = /^\{"n":(\d+)[,}]/.exec(body);
  return match ? Number(match[1]) : undefined;
}

export function decodeHead(payload: string): BusHead | undefined {
  const first = payload.indexOf(' ');
  const second = payload.indexOf(' ', first + 1);
  const third = payload.indexOf(' ', second + 1);
  if (first < 0 || second < 0 || third < 0) return undefined;
  const kind = payload.slice(first + 1, second);
  if (!KINDS.has(kind)) return undefined;
  return {
    origin: payload.slice(0, first),
    kind: kind as BusKind,
    taskId: payload.slice(second + 1, third),
    body: payload.slice(third + 1),
  };
}

export function decodeBody(kind: BusKind, taskId: string, body: string): BusMessage {
  const value = JSON.parse(body) as { u?: string; f?: boolean; e?: unknown };
  switch (kind) {
    case 'turn':
      return {
        kind,
        taskId,
        event: {
          event: StreamResponse.fromJSON(value.e),
          turnId: value.u ?? '',
          final: value.f === true,
        },
      };
    case 'reply':
      return { kind, taskId, event: StreamResponse.fromJSON(value.e) };
    case 'cancel':
    case 'stop':
      return { kind, taskId, turnId: value.u ?? '' };
    case 'queued':
      return { kind, taskId };
  }
}
