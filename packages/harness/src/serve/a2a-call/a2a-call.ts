/**
 * What an A2A request asks for, decided once from the binding's own routing
 * and read by every guard after it. Nothing here knows about HTTP: a binding
 * (JSON-RPC, HTTP+JSON, gRPC) makes an `A2ACall`; the checks and limits read
 * only this.
 */

/**
 * The A2A 1.0 operations, by their JSON-RPC names (gRPC names its methods so
 * too); 0.3's names map onto these. The one list of them: the JSON-RPC and
 * gRPC decisions here and the tests' generators
 * (through `a2a-harness/internal`) read it.
 */
export const A2A_METHODS = [
  'SendMessage',
  'SendStreamingMessage',
  'GetTask',
  'ListTasks',
  'CancelTask',
  'SubscribeToTask',
  'GetExtendedAgentCard',
  'CreateTaskPushNotificationConfig',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'DeleteTaskPushNotificationConfig',
] as const;

export type A2AMethod = (typeof A2A_METHODS)[number];

export interface A2ACall {
  method: A2AMethod;
  /** The binding that carried it, for answers in its own error shape. */
  binding: 'jsonrpc' | 'rest' | 'grpc';
  /** Asked in A2A 0.3's names or paths (its own checks apply to its own shapes). */
  legacy: boolean;
  /** From the path, on HTTP+JSON; JSON-RPC and gRPC carry these in their requests. */
  taskId?: string;
  tenant?: string;
  configId?: string;
}

/** Whether the call sends a message: the calls that start commands and turns. */
export function sendsMessage(call: A2ACall | undefined): boolean {
  return call?.method === 'SendMessage' || call?.method === 'SendStreamingMessage';
}

/** Where a binding keeps its decision: on the request object it routes. */
const CALL = Symbol('a2a-harness.call');

type Decided = object & { [CALL]?: A2ACall };

export function recordCall(request: object, call: A2ACall): void {
  (request as Decided)[CALL] = call;
}

/** The call a binding decided this request is; undefined when it is none. */
export function callOf(request: object): A2ACall | undefined {
  return (request as Decided)[CALL];
}
