/**
 * SIGTERM while a turn streams its answer: the answer so far is stored before
 * the "interrupted" note, as `/stop` keeps it (SEMANTICS §4), so a client that
 * comes back after the restart reads what it was shown. The real CLI as a
 * process, on SQLite and on PostgreSQL (where the cluster's turns end it).
 */
import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { resultOf, rpc, rpcStream, userText } from 'a2a-testing/http';
import { spawnHarness, writeConfig } from 'a2a-testing/process';
import { processStore, storeKinds } from 'a2a-testing/stores';

/** The text an event of the stream adds to the answer: its artifact chunk's. */
function answerText(result: any): string {
  const parts: { text?: string }[] = result?.artifactUpdate?.artifact?.parts ?? [];
  return parts.map((part) => part.text ?? '').join('');
}

describe.each(storeKinds)('on %s', (kind) => {
  it('SIGTERM mid-answer: after the restart GetTask has the answer so far, marked stopped, then the note', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-term-answer-'));
    const config = writeConfig(dataDir, { offline: { latencyMs: 150 } });
    const store = await processStore(kind);
    const args = ['--data', dataDir, '--config', config, ...store.flags];
    const running = await spawnHarness(args);
    const { events } = await rpcStream(running.url, 'SendStreamingMessage', {
      message: userText('tell me everything about the tides, please'),
    });
    const taskId = resultOf(await events.next()).task.id as string;
    let shown = '';
    // A few words of the answer reach the client first.
    while (shown.split(' ').length < 4) {
      const result = resultOf(await events.next());
      expect(result, 'the stream ended before the answer began').toBeDefined();
      shown += answerText(result);
    }
    const shownBeforeSignal = shown;
    running.child.kill('SIGTERM');
    const rest = (await events.rest()).map(resultOf);
    shown += rest.map(answerText).join('');
    expect(rest.at(-1)?.statusUpdate?.status.message.parts[0].text).toMatch(/shut down/);
    expect(await running.exited).toBe(0);

    const again = await spawnHarness(args);
    try {
      const task = (await rpc(again.url, 'GetTask', { id: taskId, historyLength: 10 })).body.result;
      expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      expect(task.status.message.parts[0].text).toMatch(/shut down/);
      const [question, answer, note] = task.history;
      expect(task.history).toHaveLength(3);
      expect(question.parts[0].text).toBe('tell me everything about the tides, please');
      expect(answer.role).toBe('ROLE_AGENT');
      expect(answer.metadata).toEqual({ 'a2a-harness': { stopped: true } });
      const kept = answer.parts[0].text as string;
      // Exactly what the client was shown, what came after the signal included.
      expect(kept.startsWith(shownBeforeSignal)).toBe(true);
      expect(kept).toBe(shown);
      expect(note.parts[0].text).toMatch(/shut down/);
      expect(task.artifacts.map((a: any) => [a.name, a.parts[0].text])).toEqual([['answer', kept]]);
    } finally {
      again.child.kill('SIGTERM');
      await again.exited;
    }
  }, 120_000);
});
