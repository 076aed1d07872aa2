import { A2A_METHODS, type A2ACall, type A2AMethod } from './a2a-call.js';

/** A2A 0.3's names, which the SDK's compat layer serves on the same endpoint. */
const V03_METHODS: Record<string, A2AMethod> = {
  'message/send': 'SendMessage',
  'message/stream': 'SendStreamingMessage',
  'tasks/get': 'GetTask',
  'tasks/cancel': 'CancelTask',
  'tasks/resubscribe': 'SubscribeToTask',
  'tasks/pushNotificationConfig/set': 'CreateTaskPushNotificationConfig',
  'tasks/pushNotificationConfig/get': 'GetTaskPushNotificationConfig',
  'tasks/pushNotificationConfig/list': 'ListTaskPushNotificationConfigs',
  'tasks/pushNotificationConfig/delete': 'DeleteTaskPushNotificationConfig',
  'agent/getAuthenticatedExtendedCard': 'GetExtendedAgentCard',
};

/** Made once: a JSON-RPC call carries its ids in its params, so one object a name serves every request. */
const CALLS = new Map<string, A2ACall>([
  // A2A 1.0's JSON-RPC method names are the operations' own.
  ...A2A_METHODS.map((method): [string, A2ACall] => [
    method,
    Object.freeze({ method, binding: 'jsonrpc', legacy: false }),
  ]),
  ...Object.entries(V03_METHODS).map(([name, method]): [string, A2ACall] => [
    name,
    Object.freeze({ method, binding: 'jsonrpc', legacy: true }),
  ]),
]);

/**
 * The call a JSON-RPC method name asks for, whichever version names it: the
 * two sets of names do not overlap, so the name alone decides, and a header
 * that disagrees cannot make a guard look away. Undefined for a method the
 * SDK does not serve (it answers those itself, with -32601).
 */
export function jsonRpcCallOf(method: string): A2ACall | undefined {
  return CALLS.get(method);
}
