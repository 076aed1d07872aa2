/* eslint-disable @typescript-eslint/no-explicit-any -- the checks read the answers as A2A's JSON, as on the other bindings */
import {
  AgentCard,
  CancelTaskRequest,
  GetExtendedAgentCardRequest,
  GetTaskRequest,
  SendMessageRequest,
  SendMessageResponse,
  StreamResponse,
  Task,
} from '@a2a-js/sdk';
import type { A2AService } from '@a2a-js/sdk/server/grpc';
import type * as GrpcJs from '@grpc/grpc-js';
import { COMMANDS_EXTENSION_URI } from '../spec.js';
import { ANSWER_MAX_BYTES, BodyTooLarge, type CheckerHttp } from './http.js';
import {
  AgentError,
  type AgentWire,
  type SendOptions,
  type SendResult,
  type StreamEvent,
  type StreamResult,
  type WireMessage,
  type WireTask,
} from './wire.js';

type Grpc = typeof GrpcJs;
type Service = typeof A2AService;
type Method = Service[keyof Service];

interface Loaded {
  grpc: Grpc;
  service: Service;
  client: InstanceType<ReturnType<Grpc['makeGenericClientConstructor']>>;
}

/** What to install when the gRPC client cannot be loaded. */
const MISSING =
  'checking the gRPC binding needs @grpc/grpc-js and @bufbuild/protobuf installed beside @a2a-js/sdk';

/**
 * A2A's gRPC binding, spoken with grpc-js and the SDK's own service
 * definition, loaded only when a card names the binding. Answers are turned
 * into A2A's JSON, so that every check reads them as it reads the other
 * bindings'; the response metadata stands for the HTTP headers.
 */
export class GrpcWire implements AgentWire {
  readonly binding = 'GRPC' as const;
  private loaded?: Promise<Loaded>;

  constructor(
    /** `host:port`, as the card names it. */
    readonly url: string,
    private readonly http: CheckerHttp,
  ) {}

  async send(message: WireMessage, options: SendOptions = {}): Promise<SendResult> {
    const { service } = await this.load();
    const { answer, headers } = await this.unary(
      service.sendMessage,
      SendMessageRequest.fromJSON({ message }),
      options.extensions,
    );
    const json = SendMessageResponse.toJSON(answer as SendMessageResponse) as any;
    return { task: json?.task, message: json?.message, headers };
  }

  async stream(
    message: WireMessage,
    options: SendOptions & { onEvent?: (event: StreamEvent) => boolean | void } = {},
  ): Promise<StreamResult> {
    const { grpc, service, client } = await this.load();
    const call = client.makeServerStreamRequest(
      service.sendStreamingMessage.path,
      service.sendStreamingMessage.requestSerialize as (value: unknown) => Buffer,
      service.sendStreamingMessage.responseDeserialize,
      SendMessageRequest.fromJSON({ message }),
      await this.metadata(options.extensions),
      { deadline: Date.now() + this.http.timeoutMs },
    );
    const events: StreamEvent[] = [];
    let headers = new Headers();
    call.on('metadata', (metadata) => (headers = headersOf(metadata)));
    return new Promise<StreamResult>((resolve, reject) => {
      let size = 0;
      let settled = false;
      const settle = (result: StreamResult | Error) => {
        if (settled) return;
        settled = true;
        if (result instanceof Error) reject(result);
        else resolve(result);
      };
      call.on('data', (data: StreamResponse) => {
        const event = StreamResponse.toJSON(data) as StreamEvent;
        events.push(event);
        size += JSON.stringify(event).length;
        if (size > ANSWER_MAX_BYTES) {
          call.cancel();
          settle(
            new BodyTooLarge(
              `the stream from ${this.url} is larger than ${ANSWER_MAX_BYTES / (1024 * 1024)} MiB, the most the checker reads; it stopped reading there`,
            ),
          );
        } else if (options.onEvent?.(event) === true) {
          call.cancel();
          settle({ events, headers, ended: true });
        }
      });
      call.on('end', () => settle({ events, headers, ended: true }));
      call.on('error', (error: { code?: number; details?: string }) => {
        // The deadline is the checker's time limit: a stream still open then did not end.
        if (error.code === grpc.status.DEADLINE_EXCEEDED) settle({ events, headers, ended: false });
        else settle(agentError(grpc, error));
      });
    });
  }

  async getTask(id: string): Promise<WireTask> {
    const { service } = await this.load();
    const request = GetTaskRequest.fromJSON({ id, historyLength: 1000 });
    return Task.toJSON((await this.unary(service.getTask, request)).answer as Task) as WireTask;
  }

  async cancel(id: string): Promise<WireTask> {
    const { service } = await this.load();
    const request = CancelTaskRequest.fromJSON({ id });
    return Task.toJSON((await this.unary(service.cancelTask, request)).answer as Task) as WireTask;
  }

  async extendedCard(): Promise<any> {
    const { service } = await this.load();
    const request = GetExtendedAgentCardRequest.fromJSON({});
    const { answer } = await this.unary(service.getExtendedAgentCard, request);
    return AgentCard.toJSON(answer as AgentCard);
  }

  private load(): Promise<Loaded> {
    this.loaded ??= (async () => {
      let grpc: Grpc;
      let service: Service;
      try {
        grpc = await import('@grpc/grpc-js');
        service = (await import('@a2a-js/sdk/server/grpc')).A2AService;
      } catch (error) {
        throw new Error(`${MISSING} (${(error as Error).message})`, { cause: error });
      }
      const Client = grpc.makeGenericClientConstructor(service, 'A2AService');
      const client = new Client(this.url, grpc.credentials.createInsecure(), {
        'grpc.max_receive_message_length': ANSWER_MAX_BYTES,
      });
      return { grpc, service, client };
    })();
    return this.loaded;
  }

  /** A2A-Version, the extension when asked, and the key where the user allows it. */
  private async metadata(extensions = false) {
    const { grpc } = await this.load();
    const metadata = new grpc.Metadata();
    metadata.set('a2a-version', '1.0');
    if (extensions) metadata.set('a2a-extensions', COMMANDS_EXTENSION_URI);
    const { authorization } = this.http.authorizationFor(`grpc://${this.url}`);
    if (authorization) metadata.set('authorization', authorization);
    return metadata;
  }

  private async unary(method: Method, request: unknown, extensions?: boolean) {
    const { grpc, client } = await this.load();
    const metadata = await this.metadata(extensions);
    return new Promise<{ answer: unknown; headers: Headers }>((resolve, reject) => {
      let headers = new Headers();
      const call = client.makeUnaryRequest(
        method.path,
        method.requestSerialize as (value: unknown) => Buffer,
        method.responseDeserialize,
        request,
        metadata,
        { deadline: Date.now() + this.http.timeoutMs },
        (error, answer) => {
          if (error) reject(agentError(grpc, error));
          else resolve({ answer, headers });
        },
      );
      call.on('metadata', (received) => (headers = headersOf(received)));
    });
  }
}

/** gRPC metadata as the headers the checks read (`a2a-extensions`). */
function headersOf(metadata: { getMap(): Record<string, unknown> }): Headers {
  const headers = new Headers();
  for (const [key, value] of Object.entries(metadata.getMap())) {
    if (typeof value === 'string') headers.set(key, value);
  }
  return headers;
}

/** A status the agent answered, by its name (`UNAUTHENTICATED`), as the checks report it. */
function agentError(grpc: Grpc, error: { code?: number; details?: string }): AgentError {
  const code = error.code ?? grpc.status.UNKNOWN;
  return new AgentError(grpc.status[code] ?? code, error.details || 'no details');
}
