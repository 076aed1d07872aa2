import { Role } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { describe, expect, it, vi } from 'vitest';
import { COMMANDS_EXTENSION_URI } from '../spec.js';
import { commandRequestOptions, sendText, streamText, textMessage, textRequest } from './send.js';

const OTHER = 'https://example.com/ext/other/v1';

describe('commandRequestOptions (SEMANTICS §6)', () => {
  it('§6: names the commands extension in A2A-Extensions', () => {
    expect(commandRequestOptions()).toEqual({
      serviceParameters: { 'A2A-Extensions': COMMANDS_EXTENSION_URI },
    });
  });

  it('§6: adds to the extensions already named, keeping other parameters', () => {
    const signal = new AbortController().signal;
    const options = commandRequestOptions({
      signal,
      serviceParameters: { 'A2A-Extensions': OTHER, Authorization: 'Bearer t' },
    });
    expect(options.signal).toBe(signal);
    expect(options.serviceParameters).toEqual({
      'A2A-Extensions': `${OTHER},${COMMANDS_EXTENSION_URI}`,
      Authorization: 'Bearer t',
    });
  });

  it('§6: does not name the extension twice', () => {
    const once = commandRequestOptions();
    expect(commandRequestOptions(once)).toEqual(once);
    const listed = commandRequestOptions({
      serviceParameters: { 'A2A-Extensions': ` ${COMMANDS_EXTENSION_URI} , ${OTHER}` },
    });
    expect(listed.serviceParameters).toEqual({
      'A2A-Extensions': `${COMMANDS_EXTENSION_URI},${OTHER}`,
    });
  });

  it('§6: merges header spellings in any case, and the v0.3 X-A2A-Extensions', () => {
    const options = commandRequestOptions({
      serviceParameters: { 'a2a-extensions': OTHER, 'X-A2A-Extensions': 'urn:legacy' },
    });
    expect(options.serviceParameters).toEqual({
      'A2A-Extensions': `${OTHER},urn:legacy,${COMMANDS_EXTENSION_URI}`,
    });
  });

  it('does not change the options it is given', () => {
    const serviceParameters = { 'A2A-Extensions': OTHER };
    const given = { serviceParameters };
    commandRequestOptions(given);
    expect(given).toEqual({ serviceParameters: { 'A2A-Extensions': OTHER } });
    expect(given.serviceParameters).toBe(serviceParameters);
  });
});

describe('textMessage', () => {
  it('§2: builds a user message whose only part is the text', () => {
    const message = textMessage('/model gpt-x');
    expect(message).toEqual({
      messageId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      contextId: '',
      taskId: '',
      role: Role.ROLE_USER,
      parts: [
        {
          content: { $case: 'text', value: '/model gpt-x' },
          metadata: undefined,
          filename: '',
          mediaType: 'text/plain',
        },
      ],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    });
  });

  it('uses a fresh messageId each time and the given task and context', () => {
    const a = textMessage('/help', { taskId: 't-1', contextId: 'c-1' });
    const b = textMessage('/help');
    expect(a.messageId).not.toBe(b.messageId);
    expect(a.taskId).toBe('t-1');
    expect(a.contextId).toBe('c-1');
  });
});

describe('textRequest', () => {
  it('leaves configuration undefined so the client applies its own', () => {
    const request = textRequest('/help', { taskId: 't', metadata: { k: 1 } });
    expect(request.tenant).toBe('');
    expect(request.configuration).toBeUndefined();
    expect(request.metadata).toEqual({ k: 1 });
    expect(request.message?.taskId).toBe('t');
  });

  it('completes a partial configuration from the client config, then the SDK defaults', () => {
    expect(textRequest('x', { configuration: { historyLength: 0 } }).configuration).toEqual({
      acceptedOutputModes: [],
      taskPushNotificationConfig: undefined,
      historyLength: 0,
      returnImmediately: false,
    });
    const fromConfig = textRequest(
      'x',
      { configuration: {} },
      { acceptedOutputModes: ['text/plain'], polling: true },
    ).configuration;
    expect(fromConfig).toMatchObject({
      acceptedOutputModes: ['text/plain'],
      returnImmediately: true,
    });
  });
});

describe('sendText and streamText', () => {
  function fakeClient() {
    async function* stream() {
      yield { payload: undefined };
    }
    return {
      config: undefined,
      sendMessage: vi.fn(async () => ({ id: 't' })),
      sendMessageStream: vi.fn(() => stream()),
    };
  }

  it('§6: sendText calls sendMessage with the text and the extension named', async () => {
    const client = fakeClient();
    await sendText(client as unknown as Client, '/help', { contextId: 'c' });
    expect(client.sendMessage).toHaveBeenCalledTimes(1);
    const [request, options] = client.sendMessage.mock.calls[0] as unknown as [
      ReturnType<typeof textRequest>,
      ReturnType<typeof commandRequestOptions>,
    ];
    expect(request.message?.parts[0]?.content).toEqual({ $case: 'text', value: '/help' });
    expect(request.message?.contextId).toBe('c');
    expect(options.serviceParameters).toEqual({ 'A2A-Extensions': COMMANDS_EXTENSION_URI });
  });

  it('§6: streamText returns the stream of sendMessageStream', async () => {
    const client = fakeClient();
    const events = [];
    for await (const event of streamText(client as unknown as Client, '/help', {
      requestOptions: { serviceParameters: { 'A2A-Extensions': OTHER } },
    })) {
      events.push(event);
    }
    expect(events).toEqual([{ payload: undefined }]);
    const [, options] = client.sendMessageStream.mock.calls[0] as unknown as [
      unknown,
      ReturnType<typeof commandRequestOptions>,
    ];
    expect(options.serviceParameters).toEqual({
      'A2A-Extensions': `${OTHER},${COMMANDS_EXTENSION_URI}`,
    });
  });
});
