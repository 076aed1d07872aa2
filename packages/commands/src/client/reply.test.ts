import {
  Role,
  StreamResponse,
  Task,
  TaskState,
  TaskStatusUpdateEvent,
  type Message,
  type Part,
} from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import {
  commandOf,
  isCommandReply,
  replyData,
  replyMessageOf,
  replyMetadataOf,
  replyText,
  taskRefOf,
} from './reply.js';

const text = (value: string): Part => ({
  content: { $case: 'text', value },
  metadata: undefined,
  filename: '',
  mediaType: '',
});
const data = (value: unknown): Part => ({
  content: { $case: 'data', value },
  metadata: undefined,
  filename: '',
  mediaType: '',
});

function message(
  role: Role,
  parts: Part[],
  metadata: Record<string, unknown> | undefined,
): Message {
  return {
    messageId: `m-${Math.random()}`,
    contextId: 'ctx',
    taskId: 'task-1',
    role,
    parts,
    metadata,
    extensions: [],
    referenceTaskIds: [],
  };
}

const MODEL_META = { command: 'model' };
const FORK_META = { command: 'fork', task_ref: 'sub-9' };

const reply = message(
  Role.ROLE_AGENT,
  [text('Model: gpt-x'), data({ model: 'gpt-x' })],
  MODEL_META,
);
const forkReply = message(Role.ROLE_AGENT, [text('Forked into sub-9')], FORK_META);

function event(msg: Message | undefined, metadata: Record<string, unknown> | undefined) {
  return {
    taskId: 'task-1',
    contextId: 'ctx',
    status: { state: TaskState.TASK_STATE_INPUT_REQUIRED, message: msg, timestamp: undefined },
    metadata,
  };
}

function task(msg: Message | undefined, metadata: Record<string, unknown> | undefined = {}): Task {
  return {
    id: 'task-1',
    contextId: 'ctx',
    status: { state: TaskState.TASK_STATE_WORKING, message: msg, timestamp: undefined },
    artifacts: [],
    history: [],
    metadata,
  };
}

const replyEvent = event(reply, MODEL_META);
const forkEvent = event(forkReply, FORK_META);
const wireEvent = TaskStatusUpdateEvent.toJSON(replyEvent);
const wireForkEvent = TaskStatusUpdateEvent.toJSON(forkEvent);
const streamed = { payload: { $case: 'statusUpdate' as const, value: forkEvent } };
const wireStreamed = StreamResponse.toJSON(streamed);

describe('recognising a command reply (SEMANTICS §3)', () => {
  it.each([
    ['an in-memory status update', replyEvent, 'model', undefined],
    ['an in-memory status update with task_ref', forkEvent, 'fork', 'sub-9'],
    ['a wire status update', wireEvent, 'model', undefined],
    ['a wire status update with task_ref', wireForkEvent, 'fork', 'sub-9'],
    ['an in-memory StreamResponse', streamed, 'fork', 'sub-9'],
    ['a wire StreamResponse', wireStreamed, 'fork', 'sub-9'],
    [
      'a hand-written wire StreamResponse',
      { statusUpdate: { status: {}, metadata: FORK_META } },
      'fork',
      'sub-9',
    ],
    ['an in-memory reply message', reply, 'model', undefined],
    [
      'a wire reply message (role "ROLE_AGENT")',
      { role: 'ROLE_AGENT', parts: [{ text: 'x' }], metadata: MODEL_META },
      'model',
      undefined,
    ],
    ['a Task whose status.message is the reply', task(forkReply), 'fork', 'sub-9'],
    ['a wire Task', Task.toJSON(task(reply)), 'model', undefined],
    [
      'a StreamResponse carrying the Task',
      { payload: { $case: 'task', value: task(reply) } },
      'model',
      undefined,
    ],
    ['a wire SendMessage result { task }', { task: Task.toJSON(task(reply)) }, 'model', undefined],
    [
      'a status update with the metadata only on its message',
      event(reply, undefined),
      'model',
      undefined,
    ],
  ])('§3: %s is a reply', (_, x, command, taskRef) => {
    expect(isCommandReply(x)).toBe(true);
    expect(commandOf(x)).toBe(command);
    expect(taskRefOf(x)).toBe(taskRef);
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a string', '/help'],
    ['an array', [replyEvent]],
    ['a user message with command metadata', message(Role.ROLE_USER, [text('/model')], MODEL_META)],
    [
      'a wire user message',
      { role: 'ROLE_USER', parts: [{ text: '/model' }], metadata: MODEL_META },
    ],
    ['an agent message without metadata', message(Role.ROLE_AGENT, [text('hi')], undefined)],
    ['an agent message with other metadata', message(Role.ROLE_AGENT, [text('hi')], { x: 1 })],
    [
      'an agent message whose command is not a string',
      message(Role.ROLE_AGENT, [], { command: 1 }),
    ],
    ['an agent message whose command is empty', message(Role.ROLE_AGENT, [], { command: '' })],
    [
      'a status update without command metadata',
      event(message(Role.ROLE_AGENT, [text('thinking')], undefined), undefined),
    ],
    [
      'a status update carrying a user message',
      event(message(Role.ROLE_USER, [text('/model')], undefined), MODEL_META),
    ],
    [
      'a Task whose metadata (not its status message) says command',
      task(message(Role.ROLE_AGENT, [text('x')], undefined), MODEL_META),
    ],
    ['a Task without a status message', task(undefined, MODEL_META)],
    ['a task snapshot StreamResponse', { payload: { $case: 'task', value: task(undefined) } }],
    [
      'an artifact update StreamResponse',
      { payload: { $case: 'artifactUpdate', value: { taskId: 't', metadata: MODEL_META } } },
    ],
    ['an empty StreamResponse', { payload: undefined }],
    ['a wire artifact update', { artifactUpdate: { taskId: 't', metadata: MODEL_META } }],
  ])('§3: %s is not a reply', (_, x) => {
    expect(isCommandReply(x)).toBe(false);
    expect(commandOf(x)).toBeUndefined();
    expect(taskRefOf(x)).toBeUndefined();
  });

  it('§3: replyMetadataOf gives exactly {command} or {command, task_ref}', () => {
    expect(replyMetadataOf(replyEvent)).toEqual({ command: 'model' });
    expect(replyMetadataOf(wireStreamed)).toEqual({ command: 'fork', task_ref: 'sub-9' });
    expect(replyMetadataOf(event(reply, { command: 'model', task_ref: '' }))).toEqual({
      command: 'model',
    });
  });

  it('§3: the role may be the enum value 2 or the string ROLE_AGENT', () => {
    const asNumber = { role: 2, parts: [], metadata: MODEL_META };
    const asString = { role: 'ROLE_AGENT', parts: [], metadata: MODEL_META };
    expect(commandOf(asNumber)).toBe('model');
    expect(commandOf(asString)).toBe('model');
    expect(commandOf({ role: 1, parts: [], metadata: MODEL_META })).toBeUndefined();
  });
});

describe('reading the reply message', () => {
  it('§3: replyMessageOf finds the message in an event, stream response or task', () => {
    expect(replyMessageOf(replyEvent)).toBe(reply);
    expect(replyMessageOf(streamed)).toBe(forkReply);
    expect(replyMessageOf(task(reply))).toBe(reply);
    expect(replyMessageOf(reply)).toBe(reply);
    expect(replyText(replyMessageOf(wireStreamed))).toBe('Forked into sub-9');
    expect(replyMessageOf(message(Role.ROLE_USER, [], undefined))).toBeUndefined();
    expect(replyMessageOf(event(undefined, MODEL_META))).toBeUndefined();
    expect(replyMessageOf(null)).toBeUndefined();
  });

  it('§3: replyText joins the text parts', () => {
    const multi = message(
      Role.ROLE_AGENT,
      [text('line one'), data({ a: 1 }), text('line two')],
      MODEL_META,
    );
    expect(replyText(reply)).toBe('Model: gpt-x');
    expect(replyText(multi)).toBe('line one\nline two');
  });

  it('§3: replyText reads the wire shape too', () => {
    const wire = { role: 'ROLE_AGENT', parts: [{ text: 'a' }, { data: { b: 1 } }, { text: 'c' }] };
    expect(replyText(wire)).toBe('a\nc');
  });

  it('replyText is "" when there is no text', () => {
    expect(replyText(message(Role.ROLE_AGENT, [data(1)], undefined))).toBe('');
    expect(replyText(undefined)).toBe('');
    expect(replyText({ parts: 'nope' })).toBe('');
  });

  it('§3: replyData gives the first data part, in either shape', () => {
    const two = message(Role.ROLE_AGENT, [text('x'), data({ first: true }), data(2)], undefined);
    expect(replyData(reply)).toEqual({ model: 'gpt-x' });
    expect(replyData(two)).toEqual({ first: true });
    expect(replyData({ parts: [{ text: 'x' }, { data: [1, 2] }] })).toEqual([1, 2]);
    expect(replyData(StreamResponse.toJSON(streamed))).toBeUndefined();
  });

  it('replyData keeps falsy values and is undefined without a data part', () => {
    expect(replyData(message(Role.ROLE_AGENT, [data(0)], undefined))).toBe(0);
    expect(replyData({ parts: [{ data: null }] })).toBeNull();
    expect(replyData(message(Role.ROLE_AGENT, [text('x')], undefined))).toBeUndefined();
    expect(replyData(null)).toBeUndefined();
  });

  it('a wire reply round-trips through the SDK codecs', () => {
    const wire = TaskStatusUpdateEvent.toJSON(replyEvent) as { status: { message: unknown } };
    expect(replyText(wire.status.message)).toBe('Model: gpt-x');
    expect(replyData(wire.status.message)).toEqual({ model: 'gpt-x' });
  });
});
