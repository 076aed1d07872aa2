import type {
  Message,
  SendMessageConfiguration,
  SendMessageRequest,
  SendMessageResult,
  StreamResponse,
} from '@a2a-js/sdk';
import {
  ServiceParameters,
  withA2AExtensions,
  type Client,
  type ClientConfig,
  type RequestOptions,
  type ServiceParametersUpdate,
} from '@a2a-js/sdk/client';
import { newMessage, textPart, USER } from '../message.js';
import { COMMANDS_EXTENSION_URI } from '../spec.js';

/** The extensions header in its v1.0 and v0.3 spellings, matched case-insensitively. */
const EXTENSION_HEADERS = ['a2a-extensions', 'x-a2a-extensions'];

/** Adds the commands URI to whatever extensions the parameters already name. */
function withCommandsExtension(): ServiceParametersUpdate {
  return (parameters) => {
    const named: string[] = [];
    for (const key of Object.keys(parameters)) {
      if (!EXTENSION_HEADERS.includes(key.toLowerCase())) continue;
      for (const uri of (parameters[key] ?? '').split(',')) {
        const trimmed = uri.trim();
        if (trimmed !== '' && !named.includes(trimmed)) named.push(trimmed);
      }
      delete parameters[key];
    }
    if (!named.includes(COMMANDS_EXTENSION_URI)) named.push(COMMANDS_EXTENSION_URI);
    withA2AExtensions(...named)(parameters);
  };
}

/**
 * `options` plus the `A2A-Extensions: <commands URI>` service parameter,
 * merged with any extensions already named there. The input is not changed.
 * (Commands run without it too, SEMANTICS §6; naming it makes the server echo it.)
 */
export function commandRequestOptions(options: RequestOptions = {}): RequestOptions {
  return {
    ...options,
    serviceParameters: ServiceParameters.createFrom(
      options.serviceParameters,
      withCommandsExtension(),
    ),
  };
}

export interface TextMessageOptions {
  /** The task to send to; omit to start a new task. */
  taskId?: string;
  /** The context to send in; omit to let the server pick (or infer it from the task). */
  contextId?: string;
  /** The message's id; a fresh UUID when unset (a client that shows the message at once passes its own). */
  messageId?: string;
}

/** A user message with one text part, in the SDK's in-memory shape, with a fresh messageId unless given. */
export function textMessage(text: string, options: TextMessageOptions = {}): Message {
  return newMessage({ role: USER, parts: [textPart(text)], ...options });
}

export interface SendTextOptions extends TextMessageOptions {
  /** Send configuration; fields left out come from the client's own config. */
  configuration?: Partial<SendMessageConfiguration>;
  /** Request metadata. */
  metadata?: Record<string, unknown>;
  /** Signal, extra service parameters, call context. The commands extension is added. */
  requestOptions?: RequestOptions;
}

/**
 * The complete `SendMessageRequest` for `text`. Without a `configuration` it
 * leaves the field undefined so the client applies its own config; with one,
 * fields left out come from `defaults` (the client's config), then the SDK's.
 */
export function textRequest(
  text: string,
  options: SendTextOptions = {},
  defaults?: ClientConfig,
): SendMessageRequest {
  const given = options.configuration;
  const configuration: SendMessageConfiguration | undefined = given && {
    acceptedOutputModes: given.acceptedOutputModes ?? defaults?.acceptedOutputModes ?? [],
    taskPushNotificationConfig: given.taskPushNotificationConfig,
    historyLength: given.historyLength,
    returnImmediately: given.returnImmediately ?? defaults?.polling ?? false,
  };
  return {
    tenant: '',
    message: textMessage(text, options),
    configuration,
    metadata: options.metadata,
  };
}

/**
 * Sends `text` (a command or an ordinary message) with `SendMessage`, naming
 * the commands extension. A command's reply is the returned Task's
 * `status.message` (SEMANTICS §3); read it with `commandOf` and `replyText`.
 */
export function sendText(
  client: Client,
  text: string,
  options: SendTextOptions = {},
): Promise<SendMessageResult> {
  return client.sendMessage(
    textRequest(text, options, client.config),
    commandRequestOptions(options.requestOptions),
  );
}

/**
 * Sends `text` with `SendStreamingMessage`, naming the commands extension. For
 * a command the stream yields the task snapshot, then the reply status update,
 * then ends (SEMANTICS §3).
 */
export function streamText(
  client: Client,
  text: string,
  options: SendTextOptions = {},
): AsyncGenerator<StreamResponse, void, undefined> {
  return client.sendMessageStream(
    textRequest(text, options, client.config),
    commandRequestOptions(options.requestOptions),
  );
}
