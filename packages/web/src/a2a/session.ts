import type { AgentCard, StreamResponse, Task } from '@a2a-js/sdk';
import {
  AgentCardResolver,
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import {
  commandRequestOptions,
  readCommands,
  refreshCard,
  replyData,
  replyMessageOf,
  sendText,
  textRequest,
  type CommandSpec,
} from 'a2a-commands/client';
import {
  completeArgument,
  readCompletion,
  type ArgumentValues,
  type CommandCompletionParams,
} from 'a2a-commands/client/completion';
import {
  ApiKeyRefusedError,
  asksForApiKey,
  cardForCaller,
  requiresApiKey,
  scopedKeyFetch,
} from 'a2a-chat-core';
import { ApiKeyNeededError } from './api-key.js';
import { toTaskState } from './task-states.js';

/** A message on its way: its id is known before the agent answers, so it can be shown at once. */
export interface Outgoing {
  messageId: string;
  events: AsyncGenerator<StreamResponse, void, undefined>;
}

/** Where a message goes: an existing task, or (both empty) a new one. */
export interface Target {
  taskId?: string;
  contextId?: string;
}

/** The card the chat works from, with what it is read for. */
interface ShownCard {
  card: AgentCard;
  etag: string | undefined;
  commands: readonly CommandSpec[];
  completion: CommandCompletionParams | undefined;
  /** What the chat shows of the card, to tell a change that matters from one that does not. */
  signature: string;
}

function shownCard(card: AgentCard, etag: string | undefined): ShownCard {
  const commands = readCommands(card);
  const completion = readCompletion(card);
  return { card, etag, commands, completion, signature: JSON.stringify([commands, completion]) };
}

/**
 * The card is public, so reading it says nothing of a key: one cheap call
 * that needs it (ListTasks, one task, no history) tells a wrong key at once,
 * before the person types. Only the key's refusal counts: an agent without
 * ListTasks, or one that refuses it for another reason, is taken as it is.
 */
async function checkKey(client: Client): Promise<void> {
  try {
    await client.listTasks(
      {
        tenant: '',
        contextId: '',
        status: 0,
        pageSize: 1,
        pageToken: '',
        historyLength: 0,
        statusTimestampAfter: undefined,
        includeArtifacts: false,
      },
      commandRequestOptions({}),
    );
  } catch (error) {
    if (error instanceof ApiKeyRefusedError) throw error;
  }
}

/** Pages of ListTasks read per context at most. */
const MAX_PAGES = 5;

/**
 * The chat's view of one agent: the SDK's browser client, made from the card
 * at the agent's URL, and the commands the card lists. Every call names the
 * commands extension (SEMANTICS §6), so the agent echoes it, and carries the
 * API key when there is one.
 */
export class AgentSession {
  private constructor(
    readonly url: string,
    readonly client: Client,
    private shown: ShownCard,
    private readonly fetchImpl: typeof fetch,
    /** Whether calls carry a key: then the commands shown are the caller's own (SEMANTICS §9). */
    private readonly keyed: boolean,
  ) {}

  /** The card, as last read: {@link takeCard} replaces it when the agent's changes. */
  get card(): AgentCard {
    return this.shown.card;
  }

  /** The commands the card lists. */
  get commands(): readonly CommandSpec[] {
    return this.shown.commands;
  }

  /** The command completion extension's params; undefined when the agent does not offer it. */
  get completion(): CommandCompletionParams | undefined {
    return this.shown.completion;
  }

  /**
   * Values for the argument being typed in `input` (the card's choices, or the
   * agent's values for the caller and `taskId`); undefined when it offers none,
   * so the chat shows the hint instead.
   */
  completeArgument(
    input: string,
    taskId?: string,
    signal?: AbortSignal,
  ): Promise<ArgumentValues | undefined> {
    return completeArgument(input, this.completion, { fetch: this.fetchImpl, taskId, signal });
  }

  /**
   * Reads the card at `url` and picks a transport it offers. The card is
   * public and fetched without the key; every A2A call after it sends
   * `Authorization: Bearer <apiKey>`. When the card asks for credentials and
   * there is no key, this fails with {@link ApiKeyNeededError} before any call.
   */
  static async connect(url: string, apiKey?: string): Promise<AgentSession> {
    let etag: string | undefined;
    let resolved: AgentCard | undefined;
    // The key only once the card is read and asks for one, and only to this agent's origin.
    const fetchImpl = scopedKeyFetch({ apiKey, agentUrl: url, card: () => resolved });
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [
          new JsonRpcTransportFactory({ fetchImpl }),
          new RestTransportFactory({ fetchImpl }),
        ],
        cardResolver: {
          async resolve(baseUrl, path) {
            const card = path
              ? await AgentCardResolver.default.resolve(baseUrl, path)
              : await refreshCard(baseUrl).then((read) => {
                  if (!read.changed) throw new Error('The agent answered 304 to a first read.');
                  etag = read.etag;
                  return read.card;
                });
            if (!apiKey && requiresApiKey(card)) throw new ApiKeyNeededError();
            resolved = card;
            return card;
          },
        },
      }),
    );
    const client = await factory.createFromUrl(url);
    // The extended card, when the agent offers one, is the first call with the key.
    const card = await client.getAgentCard();
    if (apiKey) await checkKey(client);
    const keyed = apiKey !== undefined && apiKey !== '' && asksForApiKey(resolved ?? card);
    return new AgentSession(url, client, shownCard(card, etag), fetchImpl, keyed);
  }

  /** The ETag of the card as first read: where a2a-chat-core's `CardWatch` starts. */
  get cardEtag(): string | undefined {
    return this.shown.etag;
  }

  /**
   * Takes a card read again (by `CardWatch`, when its ETag changed), so an
   * open chat follows the commands the agent adds or removes. Resolves true
   * when the commands (or their completion) changed. With a key and an
   * extended card, the commands are read again from that card: the caller's own.
   */
  async takeCard(publicCard: AgentCard, signal?: AbortSignal): Promise<boolean> {
    const card = await cardForCaller(publicCard, this.keyed, () =>
      this.client.getAgentCard(commandRequestOptions({ signal })),
    );
    const next = shownCard(card, this.shown.etag);
    const changed = next.signature !== this.shown.signature;
    this.shown = next;
    return changed;
  }

  /** Sends `text` (a prompt or a command) with SendStreamingMessage. */
  send(text: string, target: Target, signal?: AbortSignal): Outgoing {
    const request = textRequest(text, target, this.client.config);
    return {
      messageId: request.message!.messageId,
      events: this.client.sendMessageStream(request, commandRequestOptions({ signal })),
    };
  }

  /** The task with its whole history. */
  getTask(id: string, signal?: AbortSignal): Promise<Task> {
    return this.client.getTask({ tenant: '', id }, commandRequestOptions({ signal }));
  }

  /** CancelTask: ends the task itself (the fallback for agents without `/stop`). */
  cancel(id: string, signal?: AbortSignal): Promise<Task> {
    return this.client.cancelTask(
      { tenant: '', id, metadata: undefined },
      commandRequestOptions({ signal }),
    );
  }

  /** The task's events from now on (SubscribeToTask): a running turn, and command replies. */
  subscribe(id: string, signal?: AbortSignal): AsyncGenerator<StreamResponse, void, undefined> {
    return this.client.resubscribeTask({ tenant: '', id }, commandRequestOptions({ signal }));
  }

  /** Every task in a context, without history, by ListTasks. */
  async listContext(contextId: string, signal?: AbortSignal): Promise<Task[]> {
    const tasks: Task[] = [];
    let pageToken = '';
    for (let page = 0; page < MAX_PAGES; page++) {
      const response = await this.client.listTasks(
        {
          tenant: '',
          contextId,
          status: 0,
          pageSize: 100,
          pageToken,
          historyLength: 0,
          statusTimestampAfter: undefined,
          includeArtifacts: false,
        },
        commandRequestOptions({ signal }),
      );
      tasks.push(...response.tasks);
      pageToken = response.nextPageToken;
      if (!pageToken) break;
    }
    return tasks;
  }

  /**
   * For an agent without ListTasks: the tasks of `taskId`'s context from the
   * `/tasks` command's data part (`{tasks: [{id, title, state}]}`). The command
   * and its reply stay in that task's history, so this is a fallback only.
   */
  async listContextByCommand(taskId: string, contextId: string): Promise<Task[]> {
    if (!this.commands.some((command) => command.name === 'tasks')) return [];
    const result = await sendText(this.client, '/tasks', { taskId, contextId });
    const data = replyData(replyMessageOf(result));
    const rows = (data as { tasks?: unknown } | undefined)?.tasks;
    if (!Array.isArray(rows)) return [];
    return rows.flatMap((row: Record<string, unknown>) =>
      typeof row?.['id'] === 'string'
        ? [
            {
              id: row['id'],
              contextId,
              status: {
                state: toTaskState(row['state']) ?? 0,
                message: undefined,
                timestamp: undefined,
              },
              metadata: typeof row['title'] === 'string' ? { title: row['title'] } : {},
              history: [],
              artifacts: [],
            } satisfies Task,
          ]
        : [],
    );
  }
}
