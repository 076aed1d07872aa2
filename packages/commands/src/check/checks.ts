/* eslint-disable @typescript-eslint/no-explicit-any -- the checker reads an unknown agent's raw wire JSON, which it checks field by field */
import { Ajv } from 'ajv';
import { hintRequiresArguments } from '../client/complete.js';
import { COMMAND_COMPLETION_EXTENSION_URI } from '../completion/spec.js';
import { commandCompletionParamsSchema, completionResponseSchema } from '../schema/completion.js';
import { commandsExtensionParamsSchema } from '../schema/index.js';
import { COMMAND_NAME_PATTERN, COMMANDS_EXTENSION_URI, type CommandSpec } from '../spec.js';
import {
  AgentError,
  userMessage,
  type AgentWire,
  type WireMessage,
  type WireTask,
} from './wire.js';

/** What every check may use: the card, one binding, and the command it probes with. */
export interface CheckEnv {
  card: any;
  wire: AgentWire;
  /** A listed command that takes no required argument: `/help` when listed. */
  probe: CommandSpec | undefined;
  /** A command that creates a sub-task, with its arguments: `fork` when listed. */
  subtaskCommand: string | undefined;
  /** Whether the checker holds a key (`--api-key`): the extended card is checked then. */
  keyed?: boolean;
  /** POSTs JSON to any URL with the checker's credentials (for the completion route). */
  post(url: string, body: unknown): Promise<{ status: number; body: any }>;
}

export class CheckFailed extends Error {}
export class CheckSkipped extends Error {}

export interface Check {
  id: string;
  title: string;
  /** True when the check waits for a model turn (skipped with `--no-model`). */
  needsModel?: boolean;
  /** False for checks of the card, run once rather than per binding. */
  perBinding?: boolean;
  /** Resolves with what was seen; throws CheckFailed or CheckSkipped. */
  run(env: CheckEnv): Promise<string>;
}

const INPUT_REQUIRED = 'TASK_STATE_INPUT_REQUIRED';
const CANCELED = 'TASK_STATE_CANCELED';

export function fail(detail: string): never {
  throw new CheckFailed(detail);
}

function needProbe(env: CheckEnv): CommandSpec {
  if (!env.probe) throw new CheckSkipped('no listed command can run without arguments');
  return env.probe;
}

function tagOf(message: WireMessage | undefined): string | undefined {
  const command = message?.metadata?.['command'];
  return typeof command === 'string' ? command : undefined;
}

/** The reply in a SendMessage result: the task's status message, tagged with `name`. */
export function expectReply(task: WireTask | undefined, name: string, where: string): WireMessage {
  if (!task) fail(`${where}: the answer is not a Task`);
  const reply = task.status?.message;
  if (!reply) fail(`${where}: the Task has no status message`);
  if (tagOf(reply) !== name) {
    fail(
      `${where}: the reply's metadata is ${JSON.stringify(reply.metadata ?? {})}, not {"command":"${name}"}`,
    );
  }
  if (reply.role !== 'ROLE_AGENT') fail(`${where}: the reply's role is ${String(reply.role)}`);
  if (!reply.parts.some((part) => typeof part['text'] === 'string')) {
    fail(`${where}: the reply has no text part`);
  }
  return reply;
}

/** The reply's text parts, shortened for a report line. */
export function replyTextOf(message: WireMessage): string {
  const text = message.parts
    .map((part) => part['text'])
    .filter((value): value is string => typeof value === 'string')
    .join('\n');
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

function leakedTags(metadata: Record<string, unknown> | undefined): string[] {
  return ['command', 'task_ref'].filter((key) => metadata !== undefined && key in metadata);
}

async function commandTask(env: CheckEnv, text: string, taskId?: string): Promise<WireTask> {
  const { task } = await env.wire.send(userMessage(text, taskId ? { taskId } : {}));
  if (!task) fail(`${text}: the answer is not a Task`);
  return task;
}

function commandsEntries(card: any): any[] {
  const extensions: unknown = card?.capabilities?.extensions;
  return Array.isArray(extensions)
    ? extensions.filter((ext) => ext?.uri === COMMANDS_EXTENSION_URI)
    : [];
}

/** Every way the card's Commands entries break the spec, so that one does not hide another. */
export function cardEntryProblems(card: any): string[] {
  const problems: string[] = [];
  const entries = commandsEntries(card);
  if (entries.length !== 1)
    problems.push(`the card has ${entries.length} entries for ${COMMANDS_EXTENSION_URI}`);
  const validate = new Ajv({ allErrors: true, strict: false }).compile(
    commandsExtensionParamsSchema,
  );
  entries.forEach((entry, index) => {
    const where = entries.length > 1 ? `entry ${index + 1}: ` : '';
    if (entry.required !== false)
      problems.push(`${where}"required" is ${JSON.stringify(entry.required)}, not false`);
    if (!validate(entry.params ?? {})) {
      const errors = (validate.errors ?? []).map(
        (e) => `${e.instancePath || 'params'} ${e.message}`,
      );
      problems.push(`${where}params break the schema: ${errors.join('; ')}`);
    }
    const listed: unknown = entry.params?.commands;
    const names: string[] = (Array.isArray(listed) ? listed : [])
      .map((c: any) => c?.name)
      .filter((name): name is string => typeof name === 'string');
    const bad = names.filter((name) => !COMMAND_NAME_PATTERN.test(name));
    if (bad.length > 0)
      problems.push(`${where}names that are not [a-z][a-z0-9-]*: ${bad.join(', ')}`);
    const repeated = [...new Set(names.filter((name, i) => names.indexOf(name) !== i))];
    if (repeated.length > 0) problems.push(`${where}names listed twice: ${repeated.join(', ')}`);
  });
  return problems;
}

interface CommandDuringTurn {
  /** `turn-over`: the turn's stream had ended, or shown its final state, before the reply came. */
  outcome: 'exercised' | 'turn-over' | 'not-working-while-running';
  /** The state the reply carried. */
  seen: string | undefined;
  endState: string | undefined;
}

const RUNNING = new Set(['TASK_STATE_WORKING', 'TASK_STATE_SUBMITTED']);

/** Starts a turn, sends the probe at its first event, and notes where the turn was when the reply came. */
async function commandDuringTurn(env: CheckEnv, probe: CommandSpec): Promise<CommandDuringTurn> {
  let turnOver = false;
  let reply: Promise<{ task: WireTask; turnOverAtReply: boolean }> | undefined;
  const turn = await env.wire
    .stream(userMessage('Say hello: a2a-commands check is testing you.'), {
      onEvent: (event) => {
        const state: unknown = event['statusUpdate']?.status?.state ?? event['task']?.status?.state;
        if (typeof state === 'string' && !RUNNING.has(state)) turnOver = true;
        const id: unknown = event['task']?.id ?? event['statusUpdate']?.taskId;
        if (reply === undefined && typeof id === 'string') {
          reply = commandTask(env, `/${probe.name}`, id).then((task) => ({
            task,
            turnOverAtReply: turnOver,
          }));
        }
      },
    })
    .finally(() => {
      turnOver = true;
    });
  if (!reply) fail('the turn streamed no event naming its task');
  const { task, turnOverAtReply } = await reply;
  expectReply(task, probe.name, `/${probe.name} during the turn`);
  if (!turn.ended) fail("the turn's stream did not end");
  const after = await env.wire.getTask(task.id);
  const seen = task.status?.state;
  if (!RUNNING.has(seen ?? '') && seen !== after.status?.state)
    fail(`the reply carried ${seen}; the task was working, then ${after.status?.state}`);
  const last = turn.events.at(-1);
  const endState = last?.['statusUpdate']?.status?.state ?? last?.['task']?.status?.state;
  const outcome = RUNNING.has(seen ?? '')
    ? 'exercised'
    : turnOverAtReply
      ? 'turn-over'
      : 'not-working-while-running';
  return { outcome, seen, endState };
}

export const CHECKS: Check[] = [
  {
    id: 'card-entry',
    title: "the card's Commands v1 entry follows the spec's schema",
    perBinding: false,
    async run({ card }) {
      const problems = cardEntryProblems(card);
      if (problems.length > 0) fail(problems.join('; '));
      const entry = commandsEntries(card)[0];
      return `valid, ${(entry.params?.commands ?? []).length} commands`;
    },
  },
  {
    id: 'command-new-task',
    title: 'a command on a new task: tagged reply, task left in input-required',
    async run(env) {
      const probe = needProbe(env);
      const text = `/${probe.name}`;
      const task = await commandTask(env, text);
      expectReply(task, probe.name, text);
      if (task.status?.state !== INPUT_REQUIRED) {
        fail(`${text} left its new task in ${task.status?.state}, not ${INPUT_REQUIRED}`);
      }
      const again = await commandTask(env, text, task.id);
      expectReply(again, probe.name, `${text} again`);
      if (again.status?.state !== INPUT_REQUIRED)
        fail(`a second ${text} changed the state to ${again.status?.state}`);
      return `${text} replied tagged; state ${INPUT_REQUIRED} before and after`;
    },
  },
  {
    id: 'reply-not-in-task-metadata',
    title: 'the reply tags are not kept in Task.metadata',
    async run(env) {
      const probe = needProbe(env);
      const task = await commandTask(env, `/${probe.name}`);
      const inResult = leakedTags(task.metadata);
      if (inResult.length > 0) fail(`the returned Task's metadata keeps ${inResult.join(', ')}`);
      const stored = await env.wire.getTask(task.id);
      const inStored = leakedTags(stored.metadata);
      if (inStored.length > 0) fail(`GetTask's metadata keeps ${inStored.join(', ')}`);
      return 'neither the returned Task nor GetTask keeps "command" or "task_ref"';
    },
  },
  {
    id: 'not-a-command',
    title: 'texts that are not commands reach the agent as ordinary messages',
    needsModel: true,
    async run(env) {
      const probe = needProbe(env);
      const variants: Array<[string, WireMessage]> = [
        [`" /${probe.name}" (leading space)`, userMessage(` /${probe.name}`)],
        [
          `"/${probe.name[0]!.toUpperCase()}${probe.name.slice(1)}"`,
          userMessage(`/${probe.name[0]!.toUpperCase()}${probe.name.slice(1)}`),
        ],
        ['"/etc/hosts"', userMessage('/etc/hosts')],
        [
          `"/${probe.name}" with a data part`,
          userMessage(`/${probe.name}`, {}, [{ data: { x: 1 } }]),
        ],
      ];
      const answered: string[] = [];
      for (const [label, message] of variants) {
        const { task, message: direct } = await env.wire.send(message);
        const tagged =
          tagOf(direct) !== undefined ||
          tagOf(task?.status?.message) !== undefined ||
          (task?.history ?? []).some((entry) => tagOf(entry) !== undefined);
        if (tagged) answered.push(label);
      }
      if (answered.length > 0) fail(`answered as a command: ${answered.join(', ')}`);
      return `${variants.map(([label]) => label).join(', ')}: none answered as a command`;
    },
  },
  {
    id: 'extension-echo',
    title: 'A2A-Extensions is echoed when the request names the extension',
    async run(env) {
      const probe = needProbe(env);
      const sent = await env.wire.send(userMessage(`/${probe.name}`), { extensions: true });
      const plain = sent.headers.get('a2a-extensions') ?? '';
      if (!plain.includes(COMMANDS_EXTENSION_URI))
        fail(`a send answered A2A-Extensions: "${plain}"`);
      if (env.card?.capabilities?.streaming !== true) return 'echoed (no streaming on the card)';
      const streamed = await env.wire.stream(userMessage(`/${probe.name}`), { extensions: true });
      const header = streamed.headers.get('a2a-extensions') ?? '';
      if (!header.includes(COMMANDS_EXTENSION_URI))
        fail(`a stream answered A2A-Extensions: "${header}"`);
      return 'echoed on a send and on a stream';
    },
  },
  {
    id: 'streaming',
    title: 'a streamed command: the task snapshot, the tagged update, then the end',
    async run(env) {
      if (env.card?.capabilities?.streaming !== true)
        throw new CheckSkipped('the card does not offer streaming');
      const probe = needProbe(env);
      const { events, ended } = await env.wire.stream(userMessage(`/${probe.name}`));
      const kinds = events.map((event) => Object.keys(event)[0]);
      if (!ended) fail(`the stream did not end; events so far: ${kinds.join(', ')}`);
      if (kinds.join(',') !== 'task,statusUpdate')
        fail(`the events were [${kinds.join(', ')}], not [task, statusUpdate]`);
      const update = events[1]!['statusUpdate'];
      if (update?.metadata?.command !== probe.name) {
        fail(`the update's metadata is ${JSON.stringify(update?.metadata ?? {})}`);
      }
      if (update?.status?.state !== INPUT_REQUIRED)
        fail(`the update's state is ${update?.status?.state}`);
      return 'task, then statusUpdate tagged {"command"}, then the stream ended';
    },
  },
  {
    id: 'command-on-working-task',
    title: 'a command on a task whose turn is running: answered at once, the turn undisturbed',
    needsModel: true,
    async run(env) {
      if (env.card?.capabilities?.streaming !== true)
        throw new CheckSkipped('the card does not offer streaming');
      const probe = needProbe(env);
      let tried = await commandDuringTurn(env, probe);
      // A turn can end in the very instant the command lands: only a second look makes it a fault.
      if (tried.outcome === 'not-working-while-running')
        tried = await commandDuringTurn(env, probe);
      const { seen, endState } = tried;
      const ending = `the turn's stream ended normally (last state ${endState ?? 'unknown'})`;
      switch (tried.outcome) {
        case 'exercised':
          return `reply tagged in state ${seen}, during the turn; ${ending}`;
        case 'turn-over':
          throw new CheckSkipped(
            `the turn had ended before the command ran (reply tagged in state ${seen}), so the working case was not exercised; an agent with a slower turn would exercise it`,
          );
        case 'not-working-while-running':
          return fail(
            `the reply carried ${seen} while the turn was still running (its stream was still open and had shown no final state), twice`,
          );
      }
    },
  },
  {
    id: 'command-on-ended-task',
    title: 'a command on a canceled task: answered, the task still canceled',
    async run(env) {
      const probe = needProbe(env);
      const created = await commandTask(env, `/${probe.name}`);
      let canceled: WireTask;
      try {
        canceled = await env.wire.cancel(created.id);
      } catch (error) {
        throw new CheckSkipped(
          `CancelTask was refused (${(error as Error).message}); no ended task to try`,
        );
      }
      if (canceled.status?.state !== CANCELED)
        throw new CheckSkipped(`CancelTask left the task ${canceled.status?.state}`);
      let task: WireTask;
      try {
        task = await commandTask(env, `/${probe.name}`, created.id);
      } catch (error) {
        const code = error instanceof AgentError ? ` ${String(error.code)}` : '';
        fail(
          `/${probe.name} on the canceled task was refused (error${code}: ${(error as Error).message})`,
        );
      }
      expectReply(task, probe.name, `/${probe.name} on the canceled task`);
      if (task.status?.state !== CANCELED)
        fail(`the reply carried ${task.status?.state}, not ${CANCELED}`);
      const after = await env.wire.getTask(created.id);
      if (after.status?.state !== CANCELED) fail(`the task is now ${after.status?.state}`);
      return `replied tagged; still ${CANCELED}`;
    },
  },
  {
    id: 'task-ref',
    title: 'task_ref names a task that exists, in the same context',
    async run(env) {
      const probe = needProbe(env);
      if (!env.subtaskCommand) {
        throw new CheckSkipped(
          'no command known to create a sub-task (the card lists no /fork; pass --subtask-command)',
        );
      }
      const parent = await commandTask(env, `/${probe.name}`);
      const text = `/${env.subtaskCommand}`;
      const task = await commandTask(env, text, parent.id);
      const reply = expectReply(task, env.subtaskCommand.split(/\s/)[0]!, text);
      const ref = reply.metadata?.['task_ref'];
      if (typeof ref !== 'string') {
        const said = replyTextOf(reply);
        fail(
          `${text} made no sub-task: its reply has no task_ref (metadata ${JSON.stringify(reply.metadata)})${said ? `; the agent said: ${JSON.stringify(said)}` : ''}`,
        );
      }
      let sub: WireTask;
      try {
        sub = await env.wire.getTask(ref);
      } catch (error) {
        fail(`GetTask on task_ref ${ref} failed: ${(error as Error).message}`);
      }
      if (sub.contextId !== parent.contextId)
        fail(`the sub-task's contextId ${sub.contextId} is not the parent's ${parent.contextId}`);
      return `${text} gave task_ref ${ref}, which exists in the parent's context`;
    },
  },
];

function schemaErrors(schema: Record<string, unknown>, value: unknown): string | undefined {
  const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
  if (validate(value)) return undefined;
  return (validate.errors ?? [])
    .map((e) => `${e.instancePath || '(root)'} ${e.message}`)
    .join('; ');
}

/** The companion extension (docs/spec/command-completion-v1.txt), checked when the card claims it. */
export const COMPLETION_CHECK: Check = {
  id: 'completion-entry',
  title: 'the command completion extension, when claimed: its entry and a request follow its spec',
  perBinding: false,
  async run({ card, post }) {
    const extensions: any[] = card?.capabilities?.extensions ?? [];
    const entry = extensions.find((ext) => ext?.uri === COMMAND_COMPLETION_EXTENSION_URI);
    if (!entry) throw new CheckSkipped('the card does not offer the command completion extension');
    const params = entry.params ?? {};
    const broken = schemaErrors(commandCompletionParamsSchema, params);
    if (broken) fail(`params break the schema: ${broken}`);
    const listed = new Set(
      (extensions.find((ext) => ext?.uri === COMMANDS_EXTENSION_URI)?.params?.commands ?? []).map(
        (c: CommandSpec) => c.name,
      ),
    );
    const unlisted = (params.commands as Array<{ name: string }>)
      .map((c) => c.name)
      .filter((name) => !listed.has(name));
    if (unlisted.length > 0)
      fail(`commands the Commands entry does not list: ${unlisted.join(', ')}`);
    const unknown = await post(params.endpoint, {
      command: 'no-such-command-x',
      argument: { index: 0, value: '' },
    });
    if (unknown.status !== 404 || unknown.body?.error?.code !== 'unknown-command') {
      fail(
        `an unknown command got ${unknown.status} ${JSON.stringify(unknown.body)}, not 404 unknown-command`,
      );
    }
    const asked = (
      params.commands as Array<{
        name: string;
        arguments: Array<{ dynamic?: boolean; choices?: unknown[] }>;
      }>
    )
      .flatMap((c) =>
        c.arguments.map((a, index) => ({
          command: c.name,
          index,
          offers: a.dynamic === true || (a.choices?.length ?? 0) > 0,
        })),
      )
      .find((a) => a.offers);
    if (!asked) return 'the entry is valid; no argument offers values to ask for';
    const answer = await post(params.endpoint, {
      command: asked.command,
      argument: { index: asked.index, value: '' },
    });
    if (answer.status !== 200)
      fail(`/${asked.command}'s values got HTTP ${answer.status}: ${JSON.stringify(answer.body)}`);
    const bad = schemaErrors(completionResponseSchema, answer.body);
    if (bad) fail(`/${asked.command}'s values break the response schema: ${bad}`);
    const max = params.max_values ?? 50;
    if (answer.body.values.length > max)
      fail(`${answer.body.values.length} values, over max_values ${max}`);
    return `the entry is valid; /${asked.command} got ${answer.body.values.length} values; an unknown command got 404 unknown-command`;
  },
};

/** The command the checks probe with: `/help` when listed, else the first without a required argument. */
export function probeCommand(commands: readonly CommandSpec[]): CommandSpec | undefined {
  return (
    commands.find((command) => command.name === 'help') ??
    commands.find((command) => !hintRequiresArguments(command.argument_hint ?? ''))
  );
}
