import { match, type MatchFunction } from 'path-to-regexp';
import type { A2ACall, A2AMethod } from './a2a-call.js';

type Verb = 'GET' | 'POST' | 'DELETE';
type Params = Partial<Record<'taskId' | 'configId' | 'tenant', string>>;

interface RestRoute {
  verb: Verb;
  /** As the SDK's HTTP+JSON router declares it (`\\:` is a literal colon). */
  path: string;
  method: A2AMethod;
}

/*
 * The SDK does not export its route tables, so these are copies of them;
 * rest-routes.sdk.test.ts sends every operation with the SDK's own clients
 * through the SDK's router and checks that these decide what it ran.
 */

/** The SDK's A2A 1.0 HTTP+JSON routes, in its order; each is also served behind `/:tenant`. */
const V1_ROUTES: RestRoute[] = [
  { verb: 'GET', path: '/extendedAgentCard', method: 'GetExtendedAgentCard' },
  { verb: 'POST', path: '/message\\:send', method: 'SendMessage' },
  { verb: 'POST', path: '/message\\:stream', method: 'SendStreamingMessage' },
  { verb: 'GET', path: '/tasks/:taskId\\:subscribe', method: 'SubscribeToTask' },
  { verb: 'POST', path: '/tasks/:taskId\\:subscribe', method: 'SubscribeToTask' },
  { verb: 'POST', path: '/tasks/:taskId\\:cancel', method: 'CancelTask' },
  { verb: 'GET', path: '/tasks/:taskId', method: 'GetTask' },
  { verb: 'GET', path: '/tasks', method: 'ListTasks' },
  {
    verb: 'POST',
    path: '/tasks/:taskId/pushNotificationConfigs',
    method: 'CreateTaskPushNotificationConfig',
  },
  {
    verb: 'GET',
    path: '/tasks/:taskId/pushNotificationConfigs',
    method: 'ListTaskPushNotificationConfigs',
  },
  {
    verb: 'GET',
    path: '/tasks/:taskId/pushNotificationConfigs/:configId',
    method: 'GetTaskPushNotificationConfig',
  },
  {
    verb: 'DELETE',
    path: '/tasks/:taskId/pushNotificationConfigs/:configId',
    method: 'DeleteTaskPushNotificationConfig',
  },
];

/** The SDK's A2A 0.3 HTTP+JSON routes (its compat router, tried first for 0.3 requests). */
const V03_ROUTES: RestRoute[] = [
  { verb: 'GET', path: '/v1/card', method: 'GetExtendedAgentCard' },
  { verb: 'POST', path: '/v1/message\\:send', method: 'SendMessage' },
  { verb: 'POST', path: '/v1/message\\:stream', method: 'SendStreamingMessage' },
  { verb: 'POST', path: '/v1/tasks/:taskId\\:cancel', method: 'CancelTask' },
  { verb: 'GET', path: '/v1/tasks/:taskId\\:subscribe', method: 'SubscribeToTask' },
  { verb: 'POST', path: '/v1/tasks/:taskId\\:subscribe', method: 'SubscribeToTask' },
  { verb: 'GET', path: '/v1/tasks/:taskId', method: 'GetTask' },
  {
    verb: 'POST',
    path: '/v1/tasks/:taskId/pushNotificationConfigs',
    method: 'CreateTaskPushNotificationConfig',
  },
  {
    verb: 'GET',
    path: '/v1/tasks/:taskId/pushNotificationConfigs',
    method: 'ListTaskPushNotificationConfigs',
  },
  {
    verb: 'GET',
    path: '/v1/tasks/:taskId/pushNotificationConfigs/:configId',
    method: 'GetTaskPushNotificationConfig',
  },
  {
    verb: 'DELETE',
    path: '/v1/tasks/:taskId/pushNotificationConfigs/:configId',
    method: 'DeleteTaskPushNotificationConfig',
  },
];

/** A route as Express's router matches it: any case, an optional trailing slash, params decoded. */
interface CompiledRoute {
  verbs: ReadonlySet<string>;
  matches: MatchFunction<Params>;
  method: A2AMethod;
  legacy: boolean;
  /** The path the SDK's router matches exactly, for these params. */
  canonical: (params: Params) => string;
}

/** Express 5's own options for a route (router's Layer): what it accepts, this accepts. */
const EXPRESS_MATCHING = {
  sensitive: false,
  end: true,
  trailing: true,
  decode: decodeURIComponent,
};

/** A matcher for one fixed path, as Express matches a route or a mount point's path. */
export function matchesAsExpress(path: string): (candidate: string) => boolean {
  const matches = match(path, EXPRESS_MATCHING);
  return (candidate) => {
    try {
      return matches(candidate) !== false;
    } catch {
      return false;
    }
  };
}

const atRoot = match('/', EXPRESS_MATCHING);

/** Whether `path` (below a binding's mount point) is the mount point itself, as Express's `post('/')` matches it. */
export function isBindingRoot(path: string): boolean {
  return atRoot(path) !== false;
}

function compile(route: RestRoute, legacy: boolean, tenanted: boolean): CompiledRoute {
  const path = tenanted ? `/:tenant${route.path}` : route.path;
  const literal = path.replace(/\\:/g, ':');
  return {
    // A GET route answers HEAD too, as Express's do.
    verbs: new Set(route.verb === 'GET' ? ['GET', 'HEAD'] : [route.verb]),
    matches: match<Params>(path, EXPRESS_MATCHING),
    method: route.method,
    legacy,
    canonical: (params) =>
      literal.replace(/:(tenant|taskId|configId)\b/g, (_, name: keyof Params) =>
        encodeURIComponent(params[name] ?? ''),
      ),
  };
}

const V1_TABLE = V1_ROUTES.flatMap((route) => [
  compile(route, false, false),
  compile(route, false, true),
]);
const V03_TABLE = V03_ROUTES.map((route) => compile(route, true, false));

export interface RestDecision {
  call: A2ACall;
  /** The path to hand the SDK's router: the one spelling its routes match exactly. */
  canonicalPath: string;
}

function decide(
  table: readonly CompiledRoute[],
  verb: string,
  path: string,
): RestDecision | undefined {
  for (const route of table) {
    if (!route.verbs.has(verb)) continue;
    let found: ReturnType<MatchFunction<Params>>;
    try {
      found = route.matches(path);
    } catch {
      // A param that cannot be decoded (`%zz`): Express refuses it too.
      return undefined;
    }
    if (!found) continue;
    const { taskId, tenant, configId } = found.params;
    return {
      call: {
        method: route.method,
        binding: 'rest',
        legacy: route.legacy,
        ...(taskId !== undefined && { taskId }),
        ...(tenant !== undefined && { tenant }),
        ...(configId !== undefined && { configId }),
      },
      canonicalPath: route.canonical(found.params),
    };
  }
  return undefined;
}

/**
 * Which A2A operation an HTTP+JSON request is, by the SDK's route table and
 * Express's matching rules: a 0.3 request is tried against 0.3's routes first,
 * then 1.0's, as the SDK's routers are. `path` is below the binding's mount
 * point, without the query. Undefined when no operation is served there.
 */
export function restCallOf(verb: string, path: string, legacy: boolean): RestDecision | undefined {
  return (legacy ? decide(V03_TABLE, verb, path) : undefined) ?? decide(V1_TABLE, verb, path);
}
