import {
  resolveUserScope,
  ServerCallContext,
  type OwnerResolver,
  type User,
} from '@a2a-js/sdk/server';

/** Whose a task is: the keys every stored task is scoped by (the SDK's tenant and owner). */
export interface Owner {
  tenant: string;
  owner: string;
}

/** Contexts made by `ownerContext`, with the stored owner each stands for. */
const storedOwners = new WeakMap<ServerCallContext, string>();

/**
 * The resolver the store and the SDK's `DatabaseTaskStore` share, so that the
 * owner of a task is decided in one place. Requests are resolved by `byCaller`
 * (the SDK's own rule unless told otherwise); a context made by
 * `ownerContext` for work outside any request resolves to the owner it names,
 * whatever `byCaller` would make of it.
 */
export function taskOwnerResolver(byCaller: OwnerResolver = resolveUserScope): OwnerResolver {
  return (context) => storedOwners.get(context) ?? byCaller(context);
}

/** The tenant and owner of `context` under `resolver`, as the SDK's stores scope them. */
export function ownerOf(context: ServerCallContext, resolver: OwnerResolver): Owner {
  return { tenant: context.tenant ?? '', owner: resolver(context) };
}

/**
 * A call context for work on a stored task outside any request (recovery, a
 * turn another instance queued): it resolves to the task's stored owner.
 */
export function ownerContext(owner: string, tenant: string): ServerCallContext {
  // The user is for logs and commands that show the caller; ownership comes from the map.
  const user: User = {
    isAuthenticated: owner !== 'unknown',
    userName: owner === 'unknown' ? '' : owner,
  };
  const context = new ServerCallContext({ user, tenant: tenant || undefined });
  storedOwners.set(context, owner);
  return context;
}
