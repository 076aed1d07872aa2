/**
 * kill -9 while 100 commands, sent 3 ms apart, are in flight over ten tasks,
 * one of them in a model turn. After a restart on the same data every command
 * is either all there (its message, its reply right after it, its effect) or
 * not there at all; no task is lost and no entry is stored twice.
 */
import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { historyProblems, messageIndex, textOf, type WireMessage } from 'a2a-testing/history-audit';
import { resultOf, rpc, rpcStream, userText, waitFor } from 'a2a-testing/http';
import { spawnHarness, writeConfig } from 'a2a-testing/process';
import { processStore, storeKinds } from 'a2a-testing/stores';

const TASKS = 10;
const COMMANDS = 100;
/** The kill comes with this answer: most commands are still on their way then. */
const KILL_AT_ANSWER = 10;
/** The commands start this far apart, so the kill finds most of them on their way. */
const SEND_GAP_MS = 3;
const TURN_TEXT = 'a question that takes a while';
/**
 * A crashed instance's turns end once its lease lapses: the product's 10 s would
 * be waited out in each PostgreSQL case. The least the config takes is safe
 * here: the database is the test's own and only one instance is alive at a
 * time, so nothing can take a live instance's turns while a busy machine
 * delays a renewal.
 */
const LEASE_MS = 1000;

type CommandName = 'title' | 'system' | 'spawn';

interface SentCommand {
  name: CommandName;
  /** Unique, and no other's substring: any trace of an unanswered command can be found. */
  arg: string;
  taskId: string;
  messageId: string;
  /** The reply the client got, if the answer arrived before the kill. */
  reply?: WireMessage & { metadata?: { task_ref?: string } };
}

interface StoredTask {
  id: string;
  status: { state: string; message?: WireMessage };
  history: (WireMessage & { metadata?: { task_ref?: string } })[];
  metadata?: {
    'a2a-harness'?: { title?: string; system?: string };
    'a2a-commands'?: { parent?: string; subtasks?: string[] };
  };
}

function plannedCommand(n: number, taskId: string): SentCommand {
  const names: CommandName[] = ['title', 'title', 'system', 'spawn'];
  const name = names[n % names.length]!;
  return {
    name,
    arg: `crash-${name}-${String(n).padStart(3, '0')}`,
    taskId,
    messageId: '',
  };
}

async function storedTasks(url: string, contextId: string): Promise<StoredTask[]> {
  const listed = (await rpc(url, 'ListTasks', { contextId, pageSize: 100 })).body.result;
  return Promise.all(
    listed.tasks.map(async (t: { id: string }) => {
      const { body } = await rpc(url, 'GetTask', { id: t.id });
      if (!body.result) throw new Error(`GetTask ${t.id}: ${JSON.stringify(body.error)}`);
      // The wire leaves out an empty history: a sub-task whose prompt the kill cut off.
      return { ...body.result, history: body.result.history ?? [] };
    }),
  );
}

describe.each(storeKinds)('on %s', (kind) => {
  it('kill -9 during 100 concurrent commands: each command is whole or absent, nothing lost or doubled', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-crash-'));
    const config = writeConfig(dataDir, {
      offline: { latencyMs: 100 },
      cluster: { leaseMs: LEASE_MS },
    });
    const store = await processStore(kind, { ownDatabase: 'a2a_crash' });
    const args = ['--data', dataDir, '--config', config, ...store.flags];
    const contextId = crypto.randomUUID();

    const first = await spawnHarness(args);
    const send = (text: string, ids: { taskId?: string; contextId?: string }) => {
      const message = userText(text, ids);
      return { message, response: rpc(first.url, 'SendMessage', { message }) };
    };
    const baseIds: string[] = [];
    for (let i = 0; i < TASKS; i++) {
      const { body } = await send(`/title base-${i}`, { contextId }).response;
      baseIds.push(body.result.task.id);
    }
    const turnTask = baseIds[0]!;
    const turn = userText(TURN_TEXT, { taskId: turnTask });
    const { events } = await rpcStream(first.url, 'SendStreamingMessage', { message: turn });
    expect(resultOf(await events.next()).task.id).toBe(turnTask);
    expect(resultOf(await events.next()).statusUpdate.status.state).toBe('TASK_STATE_WORKING');

    const commands = Array.from({ length: COMMANDS }, (_, n) =>
      plannedCommand(n, baseIds[n % TASKS]!),
    );
    let answers = 0;
    const inFlight = commands.map(async (command, n) => {
      // A few milliseconds apart: sent all at once, a group commit could answer all
      // hundred together, before the client sees the answer that brings the kill.
      await new Promise((resolve) => setTimeout(resolve, n * SEND_GAP_MS));
      const { message, response } = send(`/${command.name} ${command.arg}`, {
        taskId: command.taskId,
      });
      command.messageId = message.messageId;
      const { body } = await response;
      command.reply = body.result.task.status.message;
      if (++answers === KILL_AT_ANSWER) first.child.kill('SIGKILL');
    });
    await Promise.allSettled(inFlight);
    await events.cancel();
    expect(await first.exited).toBeNull();
    const answered = commands.filter((c) => c.reply);
    expect(answered.length).toBeGreaterThanOrEqual(KILL_AT_ANSWER);
    expect(answered.length).toBeLessThan(COMMANDS);

    const second = await spawnHarness(args);
    try {
      // Sub-tasks whose first prompt the kill cut off end a few seconds later on PostgreSQL,
      // where a restart cannot tell them from another instance's work in progress.
      const tasks = await waitFor(
        async () => {
          const all = await storedTasks(second.url, contextId);
          return all.some((t) => /WORKING|SUBMITTED/.test(t.status.state)) ? undefined : all;
        },
        'interrupted turns and stranded sub-tasks to end',
        400,
      );
      const byId = new Map(tasks.map((task) => [task.id, task]));
      const index = messageIndex(tasks);
      const problems = tasks.flatMap((task) => historyProblems(task.id, task.history));

      // No task whose creation was answered is lost.
      for (const id of baseIds) if (!byId.has(id)) problems.push(`task ${id} is lost`);
      for (const c of answered.filter((c) => c.name === 'spawn'))
        if (!byId.has(c.reply!.metadata!.task_ref!))
          problems.push(`sub-task of answered ${c.arg} is lost`);

      // Every command: stored exactly once with its reply, or no trace anywhere.
      const everything = JSON.stringify(tasks);
      const committed: (SentCommand & { at: number; storedReply: StoredTask['history'][0] })[] = [];
      for (const command of commands) {
        const places = index.get(command.messageId) ?? [];
        if (places.length > 1) problems.push(`${command.arg} is stored ${places.length} times`);
        const place = places[0];
        if (!place) {
          if (command.reply) problems.push(`${command.arg} was answered but is not stored`);
          if (everything.includes(command.arg))
            problems.push(`${command.arg} is not stored, yet has left a trace`);
          continue;
        }
        const history = byId.get(place.taskId)!.history;
        if (place.taskId !== command.taskId) problems.push(`${command.arg} is in the wrong task`);
        if (textOf(history[place.at]!) !== `/${command.name} ${command.arg}`)
          problems.push(`${command.arg} is stored as "${textOf(history[place.at]!)}"`);
        const storedReply = history[place.at + 1]!;
        if (command.reply && storedReply?.messageId !== command.reply.messageId)
          problems.push(`${command.arg}: the stored reply is not the one the client got`);
        committed.push({ ...command, at: place.at, storedReply });
      }

      // Effects match the committed commands, in the order they were stored.
      const spawned = new Set<string>();
      for (const [i, id] of baseIds.entries()) {
        const mine = committed.filter((c) => c.taskId === id).sort((a, b) => a.at - b.at);
        const last = (name: CommandName) => mine.filter((c) => c.name === name).at(-1)?.arg;
        const settings = byId.get(id)?.metadata?.['a2a-harness'];
        const title = last('title') ?? `base-${i}`;
        if (settings?.title !== title)
          problems.push(`task ${i} has title ${settings?.title}, not ${title}`);
        if (settings?.system !== last('system'))
          problems.push(`task ${i} has system ${settings?.system}, not ${last('system')}`);
        const refs = mine
          .filter((c) => c.name === 'spawn')
          .map((c) => c.storedReply.metadata!.task_ref!);
        refs.forEach((ref) => spawned.add(ref));
        const linked = byId.get(id)?.metadata?.['a2a-commands']?.subtasks ?? [];
        if ([...linked].sort().join() !== [...refs].sort().join())
          problems.push(`task ${i} lists sub-tasks ${linked}, its stored /spawn replies ${refs}`);
      }
      for (const c of committed.filter((c) => c.name === 'spawn')) {
        const sub = byId.get(c.storedReply.metadata!.task_ref!);
        if (sub?.metadata?.['a2a-commands']?.parent !== c.taskId)
          problems.push(`the sub-task of ${c.arg} is missing or not linked to its parent`);
      }
      for (const task of tasks)
        if (!baseIds.includes(task.id) && !spawned.has(task.id))
          problems.push(`task ${task.id} belongs to no stored command`);

      expect(problems).toEqual([]);

      // The turn cut short ends waiting for input, with a note; its message is kept once.
      const interrupted = byId.get(turnTask)!;
      expect(interrupted.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      expect(textOf(interrupted.status.message!)).toMatch(/interrupted/);
      expect(index.get(turn.messageId)).toHaveLength(1);
      // Nothing is left working: sub-task turns the kill cut short ended the same way.
      expect(tasks.filter((t) => /WORKING|SUBMITTED/.test(t.status.state))).toEqual([]);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
      await store.drop();
    }
  }, 120_000);
});
