import type { Artifact } from '@a2a-js/sdk';
import { answerArtifact, ANSWER_ARTIFACT_NAME } from './turn-events.js';
import type { TaskEvent } from './task-events.js';

interface AnswerSoFar {
  turnId: string;
  artifactId: string;
  text: string;
}

/**
 * SEMANTICS §4: a running turn's answer so far is part of the task. It is
 * rebuilt here from the very events the task's streams get, in their order,
 * so that a snapshot taken now plus the appends that follow it is exactly the
 * whole answer. A process that saw a turn only from its middle (it joined the
 * cluster late) knows no start, and offers no snapshot for that turn.
 */
export class AnswersInProgress {
  private readonly answers = new Map<string, AnswerSoFar | 'unknown'>();

  observe(taskId: string, { event, turnId, final }: TaskEvent): void {
    const payload = event.payload;
    if (final) {
      const current = this.answers.get(taskId);
      // '' is CancelTask's final event: it ends whatever runs.
      if (current === 'unknown' || current?.turnId === turnId || turnId === '')
        this.answers.delete(taskId);
      return;
    }
    if (payload?.$case !== 'artifactUpdate') return;
    const { artifact, append } = payload.value;
    if (!artifact || artifact.name !== ANSWER_ARTIFACT_NAME) return;
    const text = artifact.parts
      .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
      .join('');
    const current = this.answers.get(taskId);
    if (!append) {
      this.answers.set(taskId, { turnId, artifactId: artifact.artifactId, text });
    } else if (current !== 'unknown' && current?.artifactId === artifact.artifactId) {
      current.text += text;
    } else {
      this.answers.set(taskId, 'unknown');
    }
  }

  /** The answer so far as the artifact the appends build on, when it is known. */
  artifactOf(taskId: string): Artifact | undefined {
    const answer = this.answers.get(taskId);
    if (!answer || answer === 'unknown') return undefined;
    return answerArtifact(answer.turnId, answer.text);
  }

  /** Tasks with an answer in progress: for tests and metrics. */
  get size(): number {
    return this.answers.size;
  }
}
