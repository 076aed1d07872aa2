/**
 * `application_name` on every connection an instance opens, so that an
 * operator reading `pg_stat_activity` sees which instance holds which
 * connection: `a2a-harness/<instance>` for the pool, `.../listen` for the
 * LISTEN connection. PostgreSQL keeps the first 63 bytes; these are 55 at most.
 */
export function poolApplicationName(instanceId: string): string {
  return `a2a-harness/${instanceId}`;
}

export function listenApplicationName(instanceId: string): string {
  return `${poolApplicationName(instanceId)}/listen`;
}

/** The URL with `application_name` set: node-postgres reads it from there, over its other options. */
export function withApplicationName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('application_name', name);
  return parsed.toString();
}
