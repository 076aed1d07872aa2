/**
 * A hand-written JSON-RPC agent that claims the Commands extension, with faults
 * that can be planted one by one, for `a2a-commands check` to catch. With no
 * fault planted it follows the spec, so each failure is the planted fault's.
 */
import express from 'express';
import { COMMAND_COMPLETION_EXTENSION_URI, COMMANDS_EXTENSION_URI } from 'a2a-commands';
import { listen, type Listening } from 'a2a-testing/http';

export const FAULTS = {
  'card-extra-key': 'card-entry',
  'state-changed': 'command-new-task',
  'tags-in-task-metadata': 'reply-not-in-task-metadata',
  'leading-space-is-command': 'not-a-command',
  'no-echo': 'extension-echo',
  'stream-without-snapshot': 'streaming',
  'working-state-lies': 'command-on-working-task',
  'working-state-input-required': 'command-on-working-task',
  'ended-task-refused': 'command-on-ended-task',
  'dangling-task-ref': 'task-ref',
  'completion-bad-entry': 'completion-entry',
} as const;

export type Fault = keyof typeof FAULTS;

interface Task {
  id: string;
  contextId: string;
  status: { state: string; message?: any };
  history: any[];
  metadata: Record<string, unknown>;
}

const TERMINAL = new Set(['TASK_STATE_COMPLETED', 'TASK_STATE_CANCELED', 'TASK_STATE_FAILED']);

export interface BrokenAgentOptions {
  /**
   * How long a streamed ordinary message's "model turn" takes, in ms (300 by
   * default; 0 ends it at once): the time a command has to land during it.
   */
  turnMs?: number;
  /**
   * The same for a blocking send (`SendMessage`), 0 by default: no check sends
   * a command during a blocking turn, so waiting there only slows the run.
   */
  blockingTurnMs?: number;
  /** Rewrites the card before it is served, for cards with several problems at once. */
  card?: (card: any) => unknown;
  /** Sees every request first: what a test wants to know about its headers. */
  onRequest?: (request: express.Request) => void;
}

export async function startBrokenAgent(
  faults: Fault[] = [],
  options: BrokenAgentOptions = {},
): Promise<Listening> {
  const has = (fault: Fault) => faults.includes(fault);
  const tasks = new Map<string, Task>();
  const app = express();
  if (options.onRequest) {
    const seen = options.onRequest;
    app.use((req, _res, next) => {
      seen(req);
      next();
    });
  }
  const listening = await listen(app);
  const base = listening.baseUrl;

  const commands = [
    { name: 'help', description: 'List the commands', argument_hint: '' },
    { name: 'fork', description: 'Copy this task', argument_hint: '' },
    { name: 'delegate', description: 'Hand a job to a sub-task', argument_hint: '<job>' },
  ];
  app.get('/.well-known/agent-card.json', (_req, res) => {
    const listed = has('card-extra-key')
      ? commands.map((c) => ({ ...c, usage: `/${c.name}` }))
      : commands;
    const card = {
      name: 'broken agent',
      version: '0.0.1',
      supportedInterfaces: [
        { url: `${base}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      ],
      capabilities: {
        streaming: true,
        extensions: [
          { uri: COMMANDS_EXTENSION_URI, required: false, params: { commands: listed } },
          // Claims completion with params off its schema: no endpoint, and a key it does not define.
          ...(has('completion-bad-entry')
            ? [
                {
                  uri: COMMAND_COMPLETION_EXTENSION_URI,
                  required: false,
                  params: {
                    commands: [{ name: 'help', arguments: [{ name: 'command', values: ['x'] }] }],
                  },
                },
              ]
            : []),
        ],
      },
    };
    res.json(options.card ? options.card(card) : card);
  });

  const agentMessage = (task: Task, text: string, metadata?: Record<string, unknown>) => ({
    messageId: crypto.randomUUID(),
    role: 'ROLE_AGENT',
    taskId: task.id,
    contextId: task.contextId,
    parts: [{ text }],
    ...(metadata ? { metadata } : {}),
  });
  const newTask = (contextId: string = crypto.randomUUID()): Task => {
    const task: Task = {
      id: crypto.randomUUID(),
      contextId,
      status: { state: 'TASK_STATE_SUBMITTED' },
      history: [],
      metadata: {},
    };
    tasks.set(task.id, task);
    return task;
  };
  const snapshot = (task: Task) => structuredClone(task);

  /** The command a message runs, per SEMANTICS §2, or undefined. */
  const commandOf = (message: any): string | undefined => {
    const parts = message?.parts ?? [];
    if (parts.length !== 1 || typeof parts[0].text !== 'string') return undefined;
    const text: string = has('leading-space-is-command')
      ? parts[0].text.trimStart()
      : parts[0].text;
    const match = /^\/([a-z][a-z0-9-]*)(?:[ \t\r\n]|$)/.exec(text);
    return match && commands.some((c) => c.name === match[1]) ? match[1] : undefined;
  };

  /** Runs a command; returns the task and the reply update. */
  const runCommand = (name: string, message: any, task: Task) => {
    const before =
      task.status.state === 'TASK_STATE_SUBMITTED'
        ? 'TASK_STATE_INPUT_REQUIRED'
        : task.status.state;
    const tags: Record<string, unknown> = { command: name };
    let text = commands.map((c) => `/${c.name}: ${c.description}`).join('\n');
    const args = String(message.parts[0].text)
      .replace(/^\/\S+\s*/, '')
      .trim();
    if (name === 'delegate' && args === '') text = 'Usage: /delegate <job>: say what to hand over.';
    if (name === 'fork' || (name === 'delegate' && args !== '')) {
      const sub = newTask(task.contextId);
      sub.status.state = 'TASK_STATE_INPUT_REQUIRED';
      tags['task_ref'] = has('dangling-task-ref') ? crypto.randomUUID() : sub.id;
      text = `Forked as ${String(tags['task_ref'])}`;
    }
    let state = before;
    if (has('state-changed')) state = 'TASK_STATE_COMPLETED';
    if (has('working-state-lies') && before === 'TASK_STATE_WORKING')
      state = 'TASK_STATE_COMPLETED';
    if (has('working-state-input-required') && before === 'TASK_STATE_WORKING')
      state = 'TASK_STATE_INPUT_REQUIRED';
    const reply = agentMessage(task, text, tags);
    task.history.push(message, reply);
    task.status = { state, message: reply };
    if (has('tags-in-task-metadata')) task.metadata = { ...task.metadata, ...tags };
    const update = {
      taskId: task.id,
      contextId: task.contextId,
      status: task.status,
      metadata: tags,
    };
    return update;
  };

  const rpcError = (id: unknown, code: number, message: string) => ({
    jsonrpc: '2.0',
    id,
    error: { code, message },
  });

  app.post('/rpc', express.json(), async (req, res) => {
    const { id, method, params } = req.body ?? {};
    if (!has('no-echo') && (req.header('a2a-extensions') ?? '').includes(COMMANDS_EXTENSION_URI)) {
      res.setHeader('A2A-Extensions', COMMANDS_EXTENSION_URI);
    }
    if (method === 'GetTask' || method === 'CancelTask') {
      const task = tasks.get(params?.id);
      if (!task) return res.json(rpcError(id, -32001, 'Task not found'));
      if (method === 'CancelTask') task.status = { state: 'TASK_STATE_CANCELED' };
      return res.json({ jsonrpc: '2.0', id, result: snapshot(task) });
    }
    if (method !== 'SendMessage' && method !== 'SendStreamingMessage') {
      return res.json(rpcError(id, -32601, 'Method not found'));
    }
    const message = params?.message;
    let task: Task;
    if (message?.taskId) {
      const found = tasks.get(message.taskId);
      if (!found) return res.json(rpcError(id, -32001, 'Task not found'));
      task = found;
    } else task = newTask(message?.contextId);
    const name = commandOf(message);
    if (name && TERMINAL.has(task.status.state) && has('ended-task-refused')) {
      return res.json(rpcError(id, -32004, 'Task is in a terminal state'));
    }
    const streaming = method === 'SendStreamingMessage';
    const send = (result: unknown) => {
      if (streaming) res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id, result })}\n\n`);
    };
    if (streaming) res.setHeader('content-type', 'text/event-stream').flushHeaders();

    if (name) {
      const created = task.status.state === 'TASK_STATE_SUBMITTED';
      if (created) task.status = { state: 'TASK_STATE_INPUT_REQUIRED' };
      if (!has('stream-without-snapshot')) send({ task: { ...snapshot(task), history: [] } });
      const update = runCommand(name, message, task);
      if (streaming) {
        send({ statusUpdate: update });
        return res.end();
      }
      return res.json({ jsonrpc: '2.0', id, result: { task: snapshot(task) } });
    }
    // An ordinary message: a short "model turn".
    task.history.push(message);
    task.status = { state: 'TASK_STATE_WORKING' };
    send({ task: snapshot(task) });
    // With 0 the turn ends in the same tick, before any command can reach it.
    const turnMs = streaming ? (options.turnMs ?? 300) : (options.blockingTurnMs ?? 0);
    if (turnMs !== 0) await new Promise((resolve) => setTimeout(resolve, turnMs));
    const answer = agentMessage(task, 'You said something.');
    task.history.push(answer);
    if (
      task.status.state === 'TASK_STATE_WORKING' ||
      task.status.state === 'TASK_STATE_COMPLETED'
    ) {
      task.status = { state: 'TASK_STATE_INPUT_REQUIRED', message: answer };
    }
    if (streaming) {
      send({ statusUpdate: { taskId: task.id, contextId: task.contextId, status: task.status } });
      return res.end();
    }
    return res.json({ jsonrpc: '2.0', id, result: { task: snapshot(task) } });
  });
  return listening;
}
