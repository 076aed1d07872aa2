import { readFileSync } from 'node:fs';
import type { StreamResponse, Task } from '@a2a-js/sdk';
import { parseCommandText } from 'a2a-commands/client';
import { emptyTranscript, TranscriptCore, type Transcript } from '../src/transcript.js';

/** One thing that happened, as packages/harness/test/record/record-chat-events.ts wrote it down. */
export type Step =
  | { sent: { stream: string; messageId: string; text: string } }
  | { stream: string; event: StreamResponse }
  | { call: 'GetTask' | 'CancelTask'; task: Task };

export interface Recording {
  description: string;
  steps: Step[];
}

export function load(name: string): Recording {
  const url = new URL(`./recorded/${name}.json`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as Recording;
}

export const core = new TranscriptCore();

export interface ReplayOptions {
  /** The streams this client reads, and the messages it sent on them. */
  streams: readonly string[];
  /** Open the task from the recorded GetTask (a client joining), instead of ignoring it. */
  openWithGetTask?: boolean;
  /** Called with the transcript after each step this client saw. */
  each?: (transcript: Transcript, step: Step) => void;
}

/** What one client makes of a recording: the steps it saw, in the order they came. */
export function replay(
  steps: readonly Step[],
  options: ReplayOptions,
  start: Transcript = emptyTranscript,
): Transcript {
  let transcript = start;
  for (const step of steps) {
    if ('sent' in step) {
      if (!options.streams.includes(step.sent.stream)) continue;
      const { messageId, text } = step.sent;
      const command = parseCommandText(text)?.name;
      transcript = core.reduce(transcript, { type: 'sent', messageId, text, command });
    } else if ('stream' in step) {
      if (!options.streams.includes(step.stream)) continue;
      transcript = core.reduce(transcript, { type: 'event', event: step.event });
    } else if (step.call === 'GetTask' && options.openWithGetTask) {
      transcript = core.reduce(transcript, { type: 'reset', task: step.task });
    } else {
      continue;
    }
    options.each?.(transcript, step);
  }
  return transcript;
}

/** The text of the message that ended the turn on `stream`, as the agent sent it. */
export function finalAnswerOf(steps: readonly Step[], stream: string): string {
  for (const step of [...steps].reverse()) {
    if (!('stream' in step) || step.stream !== stream) continue;
    const payload = step.event.payload;
    if (payload?.$case !== 'statusUpdate' || payload.value.metadata?.['command']) continue;
    const parts = payload.value.status?.message?.parts ?? [];
    if (parts.length > 0) {
      return parts
        .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
        .join('');
    }
  }
  throw new Error(`no final answer on ${stream}`);
}

/** The recording with every `answer` artifact taken out of its snapshots: an agent that keeps no answer so far. */
export function withoutAnswersSoFar(steps: readonly Step[]): Step[] {
  return steps.map((step) => {
    if ('call' in step) return { ...step, task: { ...step.task, artifacts: [] } };
    if ('stream' in step && step.event.payload?.$case === 'task') {
      const task = { ...step.event.payload.value, artifacts: [] };
      return { ...step, event: { payload: { $case: 'task', value: task } } };
    }
    return step;
  });
}
